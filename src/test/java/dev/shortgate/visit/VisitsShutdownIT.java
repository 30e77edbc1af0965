package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.support.JarProcess;
import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.Test;

/**
 * End to end with the packaged jar: after SIGTERM the database holds exactly as many counted visits and raw rows as
 * redirects were answered, whether the SIGTERM follows the last request or arrives while clients keep sending.
 */
class VisitsShutdownIT {

    static final int N = 300;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * The flush intervals are set so large that nothing is written before the SIGTERM: every visit and every count
     * is written by the shutdown flush.
     */
    @Test
    void sigtermAfterTheLastRedirectStillWritesEveryVisitAndCount() throws Exception {
        try (TestServers.Database database = TestServers.newDatabase();
                JarProcess app = start(
                        database,
                        Map.of(
                                "shortgate.visit.flush-interval",
                                "10m",
                                "shortgate.visit.batch-size",
                                "10000",
                                "shortgate.visit.counts-flush-interval",
                                "10m"))) {
            String code = create(app, "https://example.com/sigterm");
            for (int i = 0; i < N; i++) {
                assertThat(status(app.baseUrl() + "/" + code, "e2e/" + i)).isEqualTo(302);
            }

            app.terminate(Duration.ofSeconds(120)); // SIGTERM right after the last response

            assertThat(database.queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'"))
                    .as("raw visits after exit; log:\n%s", app.logTail())
                    .isEqualTo(N);
            assertThat(database.queryForLong("SELECT SUM(visits) FROM link_stats WHERE code = '" + code + "'"))
                    .isEqualTo(N);
            assertThat(Files.readString(app.workDir().resolve("app.log")))
                    .contains("Flushing " + N + " buffered visits and the counts of " + N + " before shutdown");
        }
    }

    /**
     * SIGTERM while eight clients keep sending on keep-alive connections: every request sent is answered (the last
     * one on each connection with {@code Connection: close}) or refused a new connection, and every redirect that
     * was answered is counted in {@code link_stats} and stored as a raw row once the process has exited.
     */
    @Test
    void sigtermUnderLoadCountsAndStoresEveryRedirectAnswered() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try (TestServers.Database database = TestServers.newDatabase();
                JarProcess app = start(database, Map.of())) {
            String code = create(app, "https://example.com/sigterm-load");
            AtomicInteger answered = new AtomicInteger();
            List<String> cut = new CopyOnWriteArrayList<>(); // sent, never answered
            List<Future<?>> senders = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                senders.add(clients.submit(() -> {
                    for (int i = 0; i < 50_000; i++) { // bounded; ends at the first refused request
                        try {
                            if (status(app.baseUrl() + "/" + code, "load/" + i) == 302) {
                                answered.incrementAndGet();
                            }
                        } catch (ConnectException e) {
                            return; // refused: the pod stopped listening, as it should once drained
                        } catch (IOException e) {
                            cut.add(e.toString());
                            return;
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }));
            }
            await().atMost(Duration.ofSeconds(120)).until(() -> answered.get() >= 2_000);

            app.terminate(Duration.ofSeconds(120)); // SIGTERM while the clients keep sending
            for (Future<?> sender : senders) {
                sender.get(60, TimeUnit.SECONDS);
            }

            assertThat(cut)
                    .as("requests sent after SIGTERM that got no answer; log:\n%s", app.logTail())
                    .isEmpty();
            assertThat(database.queryForLong("SELECT SUM(visits) FROM link_stats WHERE code = '" + code + "'"))
                    .as(
                            "counted visits after exit (raw rows %s, flushes %s); log:\n%s",
                            database.queryForLong("SELECT COUNT(*) FROM visit"),
                            database.queryForLong("SELECT COUNT(*) FROM visit_flush"),
                            app.logTail())
                    .isEqualTo(answered.get());
            assertThat(database.queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'"))
                    .as("raw visits after exit; log:\n%s", app.logTail())
                    .isEqualTo(answered.get());
        } finally {
            clients.shutdownNow();
        }
    }

    private static JarProcess start(TestServers.Database database, Map<String, String> settings) throws IOException {
        Map<String, String> arguments = new HashMap<>(settings);
        arguments.put("spring.r2dbc.url", database.r2dbcUrl());
        arguments.put("shortgate.security.admin-key", TestServers.ADMIN_KEY);
        arguments.put("shortgate.visit.shutdown-flush-timeout", "60s");
        arguments.put("spring.lifecycle.timeout-per-shutdown-phase", "90s");
        return JarProcess.start(arguments, Map.of());
    }

    private String create(JarProcess app, String url) throws IOException, InterruptedException {
        HttpResponse<String> created = http.send(
                HttpRequest.newBuilder(URI.create(app.baseUrl() + "/api/v1/links"))
                        .header("Content-Type", "application/json")
                        .header("X-Api-Key", TestServers.ADMIN_KEY)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"" + url + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).isEqualTo(201);
        return created.body().replaceAll(".*\"code\":\"([^\"]+)\".*", "$1");
    }

    private int status(String uri, String userAgent) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(uri))
                .timeout(Duration.ofSeconds(10))
                .header("User-Agent", userAgent)
                .GET()
                .build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
