package dev.shortgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import dev.shortgate.support.JarProcess;
import dev.shortgate.support.Nginx;
import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two packaged jars ("pods") on one MariaDB and Redis behind nginx on loopback, as behind a Kubernetes ingress;
 * every request goes through nginx only, and nginx says which pod answered. The near-cache TTL is far longer than
 * the test, so only the invalidation message can make a pod see a change.
 */
class TwoPodsBehindNginxIT {

    private static final String KEY = "e2e-admin-key-0123456789";
    private static final Pattern CODE = Pattern.compile("\"code\":\"([0-9A-Za-z_-]+)\"");

    static TestServers.Database database;
    static JarProcess podA;
    static JarProcess podB;
    static Nginx nginx;
    static final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @BeforeAll
    static void start() throws IOException {
        String redisUrl = TestServers.redisUrl();
        database = TestServers.newDatabase();
        Map<String, String> settings = Map.of(
                "spring.r2dbc.url",
                database.r2dbcUrl(),
                "spring.data.redis.url",
                redisUrl,
                "shortgate.redirect.redis.key-prefix",
                TestServers.newRedisPrefix(),
                "shortgate.redirect.near-cache.ttl",
                "10m",
                "shortgate.visit.trusted-proxies",
                Nginx.UPSTREAM_SOURCE + "/32",
                "shortgate.visit.store-raw-ip",
                "true",
                "shortgate.security.rate-limit.api-capacity",
                "100000",
                "shortgate.security.rate-limit.api-refill",
                "100000");
        podA = JarProcess.start(settings, Map.of("SHORTGATE_ADMIN_KEY", KEY));
        podB = JarProcess.start(settings, Map.of("SHORTGATE_ADMIN_KEY", KEY));
        nginx = Nginx.inFrontOf(List.of(port(podA), port(podB)));
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable open : new AutoCloseable[] {nginx, podA, podB, database}) {
            try {
                if (open != null) {
                    open.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void aLinkCreatedOnOnePodRedirectsOnBoth() throws Exception {
        String code = codeOf(create("https://example.com/both"));

        assertThat(answersOfBothPods("/" + code)).allSatisfy(answer -> {
            assertThat(answer.statusCode()).isEqualTo(302);
            assertThat(answer.headers().firstValue("Location")).hasValue("https://example.com/both");
        });
    }

    @Test
    void anEditAndADeleteAreSeenByBothPodsWithinOneSecond() throws Exception {
        String code = codeOf(create("https://example.com/edit-me"));
        answersOfBothPods("/" + code); // both pods now hold it in their near cache

        assertThat(send(request("/api/v1/links/" + code)
                                .method(
                                        "PATCH",
                                        HttpRequest.BodyPublishers.ofString("{\"url\":\"https://example.com/edited\"}"))
                                .header("Content-Type", "application/merge-patch+json"))
                        .statusCode())
                .isEqualTo(200);
        // Every request sent a second after the change answers the new state (the near-cache TTL is 10 minutes, so
        // only the invalidation can have brought it): judged by when requests are sent, not how fast a loaded
        // machine answers them.
        oneSecondAfter(System.nanoTime());
        assertThat(answersOfBothPods("/" + code))
                .allSatisfy(answer ->
                        assertThat(answer.headers().firstValue("Location")).hasValue("https://example.com/edited"));

        assertThat(send(request("/api/v1/links/" + code).DELETE()).statusCode()).isEqualTo(204);
        oneSecondAfter(System.nanoTime());
        assertThat(answersOfBothPods("/" + code))
                .allSatisfy(answer -> assertThat(answer.statusCode()).isEqualTo(404));
    }

    private static void oneSecondAfter(long start) {
        long due = start + Duration.ofSeconds(1).toNanos();
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> System.nanoTime() >= due);
    }

    @Test
    void twiceFiftyConcurrentCreatesOfOneUrlGiveOneCode() throws Exception {
        String url = "https://example.com/stampede?n=" + System.nanoTime();
        HttpRequest create = request("/api/v1/links")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"" + url + "\"}"))
                .build();
        List<CompletableFuture<HttpResponse<String>>> creates = IntStream.range(0, 100)
                .mapToObj(i -> sendRetryingShed(create, 5))
                .toList();

        List<HttpResponse<String>> answers =
                creates.stream().map(CompletableFuture::join).toList();
        assertThat(answers)
                .allSatisfy(answer ->
                        assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201));
        assertThat(answers.stream()
                        .map(answer -> answer.headers().firstValue("X-Upstream").orElseThrow())
                        .distinct())
                .as("both pods created")
                .hasSize(2);
        assertThat(answers.stream().map(TwoPodsBehindNginxIT::codeOf).distinct())
                .hasSize(1);
        // one 201 at most: a create that made the row but answered 503 (and was retried) leaves only 200s
        assertThat(answers.stream().filter(answer -> answer.statusCode() == 201))
                .hasSizeLessThanOrEqualTo(1);
        String listed = send(request("/api/v1/links?limit=100").GET()).body();
        assertThat(Pattern.compile(Pattern.quote("\"url\":\"" + url + "\""))
                        .matcher(listed)
                        .results()
                        .count())
                .as("links of the URL in %s", listed)
                .isEqualTo(1);
    }

    @Test
    void visitsRecordTheAddressNginxPassedOnAndIgnoreAForgedForwardedFor() throws Exception {
        String code = codeOf(create("https://example.com/visited"));

        // From 127.0.0.2, through nginx, claiming to be 203.0.113.7: nginx appends the real address after the claim.
        assertThat(rawGet("127.0.0.2", nginx.port(), "/" + code, "203.0.113.7")).startsWith("HTTP/1.1 302");
        // Straight to a pod (not through the trusted proxy), with the same claim: the socket peer counts.
        assertThat(rawGet("127.0.0.4", port(podA), "/" + code, "203.0.113.7")).startsWith("HTTP/1.1 302");

        // A pod's first visit builds its user-agent parser first: many seconds on a loaded machine.
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    String visits = send(request("/api/v1/links/" + code + "/visits?limit=10")
                                    .GET())
                            .body();
                    Matcher ips = Pattern.compile("\"ip\":\"([^\"]*)\"").matcher(visits);
                    Set<String> recorded = new HashSet<>();
                    while (ips.find()) {
                        recorded.add(ips.group(1));
                    }
                    assertThat(recorded).as(visits).containsExactlyInAnyOrder("127.0.0.2", "127.0.0.4");
                });
    }

    /**
     * Sends the request; a 503 (a pod shedding load: the database is slow on a loaded machine) is sent again, as a
     * client does, up to {@code attempts} times in all.
     */
    private static CompletableFuture<HttpResponse<String>> sendRetryingShed(HttpRequest request, int attempts) {
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenCompose(answer -> answer.statusCode() == 503 && attempts > 1
                        ? CompletableFuture.supplyAsync(
                                        () -> null,
                                        CompletableFuture.delayedExecutor(
                                                200, java.util.concurrent.TimeUnit.MILLISECONDS))
                                .thenCompose(ignored -> sendRetryingShed(request, attempts - 1))
                        : CompletableFuture.completedFuture(answer));
    }

    /** GETs the path on every pod through nginx (round robin): the answer of each pod, keyed by nginx's upstream. */
    private static List<HttpResponse<String>> answersOfBothPods(String path) throws Exception {
        Map<String, HttpResponse<String>> byPod = new java.util.HashMap<>();
        for (int i = 0; i < 20 && byPod.size() < 2; i++) {
            HttpResponse<String> answer = send(request(path).GET());
            byPod.put(answer.headers().firstValue("X-Upstream").orElseThrow(), answer);
        }
        assertThat(byPod).as("answers from both pods").hasSize(2);
        return List.copyOf(byPod.values());
    }

    private static HttpResponse<String> create(String url) throws Exception {
        HttpResponse<String> created = send(request("/api/v1/links")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"" + url + "\"}")));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return created;
    }

    private static String codeOf(HttpResponse<String> created) {
        Matcher code = CODE.matcher(created.body());
        assertThat(code.find()).as(created.body()).isTrue();
        return code.group(1);
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(nginx.baseUrl() + path))
                .header("X-Api-Key", KEY)
                .timeout(Duration.ofSeconds(30));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET from a chosen loopback address (which Java's HTTP client cannot bind), returning the raw answer. */
    private static String rawGet(String from, int port, String path, String forwardedFor) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: sho.rt\r\nX-Forwarded-For: " + forwardedFor
                            + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static int port(JarProcess pod) {
        return URI.create(pod.baseUrl()).getPort();
    }
}
