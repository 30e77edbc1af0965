package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.Test;

/**
 * End to end: start the packaged jar, send N redirects, send SIGTERM right after the last response, and after
 * the process exits the database holds exactly N visits. The flush interval and batch size are set so large that
 * nothing is written before the SIGTERM: every visit is written by the shutdown flush.
 */
class VisitsShutdownIT {

    static final int N = 300;

    @Test
    void sigtermAfterTheLastRedirectStillWritesEveryVisit() throws Exception {
        Path jar = Path.of(System.getProperty("shortgate.test.jar", "target/shortgate.jar"));
        assumeTrue(Files.isRegularFile(jar), "No packaged jar at " + jar + "; run through ./mvnw verify");
        try (TestServers.Database database = TestServers.newDatabase()) {
            int port = freePort();
            int managementPort = freePort();
            Path log = Files.createTempFile("shortgate-sigterm", ".log");
            Process app = new ProcessBuilder(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(),
                    "--server.port=" + port,
                    "--management.server.port=" + managementPort,
                    "--spring.r2dbc.url=" + database.r2dbcUrl(),
                    "--shortgate.security.admin-key=" + TestServers.ADMIN_KEY,
                    "--shortgate.visit.flush-interval=10m",
                    "--shortgate.visit.batch-size=10000",
                    "--shortgate.visit.shutdown-flush-timeout=60s",
                    "--spring.lifecycle.timeout-per-shutdown-phase=90s"))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
                await().atMost(Duration.ofSeconds(120)).ignoreExceptions()
                        .until(() -> status(http, "http://127.0.0.1:" + managementPort + "/actuator/health/readiness",
                                "GET", null) == 200);
                HttpResponse<String> created = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + port + "/api/v1/links"))
                        .header("Content-Type", "application/json")
                        .header("X-Api-Key", TestServers.ADMIN_KEY)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"https://example.com/sigterm\"}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(created.statusCode()).isEqualTo(201);
                String code = created.body().replaceAll(".*\"code\":\"([^\"]+)\".*", "$1");

                for (int i = 0; i < N; i++) {
                    assertThat(status(http, "http://127.0.0.1:" + port + "/" + code, "GET", "e2e/" + i))
                            .isEqualTo(302);
                }
                app.destroy(); // SIGTERM

                assertThat(app.waitFor(120, TimeUnit.SECONDS)).as("the app exits after SIGTERM").isTrue();
                assertThat(database.queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'"))
                        .as("visits in the database after exit; log: %s", log).isEqualTo(N);
                assertThat(database.queryForLong("SELECT SUM(visits) FROM link_stats WHERE code = '" + code + "'"))
                        .isEqualTo(N);
                assertThat(Files.readString(log)).contains("Flushing " + N + " buffered visits and the counts of " + N + " before shutdown");
            } finally {
                if (app.isAlive()) {
                    app.destroyForcibly();
                }
            }
        }
    }

    /**
     * SIGTERM while eight clients keep sending: every redirect that was answered is counted in {@code link_stats}
     * and stored as a raw row once the process has exited, however the requests and the shutdown interleave.
     */
    @Test
    void sigtermUnderLoadCountsAndStoresEveryRedirectAnswered() throws Exception {
        Path jar = Path.of(System.getProperty("shortgate.test.jar", "target/shortgate.jar"));
        assumeTrue(Files.isRegularFile(jar), "No packaged jar at " + jar + "; run through ./mvnw verify");
        try (TestServers.Database database = TestServers.newDatabase()) {
            int port = freePort();
            int managementPort = freePort();
            Path log = Files.createTempFile("shortgate-sigterm-load", ".log");
            Process app = new ProcessBuilder(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(),
                    "--server.port=" + port,
                    "--management.server.port=" + managementPort,
                    "--spring.r2dbc.url=" + database.r2dbcUrl(),
                    "--shortgate.security.admin-key=" + TestServers.ADMIN_KEY,
                    "--shortgate.visit.shutdown-flush-timeout=60s",
                    "--spring.lifecycle.timeout-per-shutdown-phase=90s"))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(8);
            try {
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
                await().atMost(Duration.ofSeconds(120)).ignoreExceptions()
                        .until(() -> status(http, "http://127.0.0.1:" + managementPort + "/actuator/health/readiness",
                                "GET", null) == 200);
                HttpResponse<String> created = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + port + "/api/v1/links"))
                        .header("Content-Type", "application/json")
                        .header("X-Api-Key", TestServers.ADMIN_KEY)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"https://example.com/sigterm-load\"}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                String code = created.body().replaceAll(".*\"code\":\"([^\"]+)\".*", "$1");
                java.util.concurrent.atomic.AtomicInteger answered = new java.util.concurrent.atomic.AtomicInteger();
                java.util.List<java.util.concurrent.Future<?>> senders = new java.util.ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    senders.add(clients.submit(() -> {
                        for (int i = 0; i < 50_000; i++) { // bounded; ends at the first refused request
                            try {
                                if (status(http, "http://127.0.0.1:" + port + "/" + code, "GET", "load/" + i) == 302) {
                                    answered.incrementAndGet();
                                }
                            } catch (IOException | InterruptedException e) {
                                return;
                            }
                        }
                    }));
                }
                await().atMost(Duration.ofSeconds(120)).until(() -> answered.get() >= 2_000);
                app.destroy(); // SIGTERM while the clients keep sending

                assertThat(app.waitFor(120, TimeUnit.SECONDS)).as("the app exits after SIGTERM").isTrue();
                for (java.util.concurrent.Future<?> sender : senders) {
                    sender.get(60, TimeUnit.SECONDS);
                }
                assertThat(database.queryForLong("SELECT SUM(visits) FROM link_stats WHERE code = '" + code + "'"))
                        .as("counted visits after exit; log: %s", log).isEqualTo(answered.get());
                assertThat(database.queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'"))
                        .as("raw visits after exit; log: %s", log).isEqualTo(answered.get());
            } finally {
                clients.shutdownNow();
                if (app.isAlive()) {
                    app.destroyForcibly();
                }
            }
        }
    }

    private static int status(HttpClient http, String uri, String method, String userAgent)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (userAgent != null) {
            request.header("User-Agent", userAgent);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
