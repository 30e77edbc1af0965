package dev.shortgate.redirect.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.redirect.lookup.NearCache;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The fast path answers redirect requests below Spring's dispatcher exactly as the general stack would: every
 * redirect behaviour, keep-alive and pipelining included, near-cache hits at once and misses once looked up. Each
 * test checks that the fast path (and not the general stack) answered by the {@code shortgate.redirect.fast}
 * counter, and that what it does not take is handed on and still answered right.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + FastRedirectsTest.KEY,
            "shortgate.security.rate-limit.not-found-capacity=3",
            "shortgate.security.rate-limit.not-found-refill=1",
            "shortgate.security.rate-limit.not-found-period=1h",
            // each test is a client of its own behind a trusted proxy, so per-IP budgets never meet
            "shortgate.visit.trusted-proxies=127.0.0.0/8",
            "shortgate.visit.flush-interval=50ms",
            "spring.r2dbc.url=r2dbc:h2:mem:///fastpath?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class FastRedirectsTest {

    static final String KEY = "fastpath-admin-key-0123";
    static final AtomicInteger clients = new AtomicInteger();

    /** Time moved by hand: the ticker (cache freshness) and the clock (link expiry). */
    @TestConfiguration
    static class FakeTime {
        static final AtomicLong nanos = new AtomicLong(System.nanoTime());
        static final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

        @Bean
        @Primary
        Ticker fakeTicker() {
            return nanos::get;
        }

        @Bean
        @Primary
        Clock fakeClock() {
            return new Clock() {
                @Override
                public ZoneId getZone() {
                    return ZoneOffset.UTC;
                }

                @Override
                public Clock withZone(ZoneId zone) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public Instant instant() {
                    return now.get();
                }
            };
        }

        static void advance(Duration duration) {
            nanos.addAndGet(duration.toNanos());
            now.updateAndGet(instant -> instant.plus(duration));
        }
    }

    @Autowired
    WebTestClient client;

    @Autowired
    MeterRegistry registry;

    @Autowired
    DatabaseClient db;

    @Autowired
    NearCache near;

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void cachedLinkIsRedirectedOnTheFastPathWithItsHeadersAndAVisit() {
        String code = create(Map.of("url", "https://example.com/fast?a=1"));
        double fast = fastAnswers();
        web().get()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/fast?a=1")
                .expectHeader()
                .valueEquals("Cache-Control", "private, max-age=0")
                .expectHeader()
                .valueEquals("Referrer-Policy", "strict-origin-when-cross-origin")
                .expectHeader()
                .contentLength(0)
                .expectBody()
                .isEmpty();
        assertThat(fastAnswers()).isEqualTo(fast + 1);
        assertThat(registry.get("shortgate.redirect")
                        .tag("tier", "near")
                        .tag("outcome", "found")
                        .timer()
                        .count())
                .isPositive();
        await().atMost(Duration.ofSeconds(90))
                .until(() -> visitRows(code) == 1); // the first batch builds the UA parser
    }

    @Test
    void headIsAnsweredAsGetWithNoBodyAndNoVisit() {
        String code = create(Map.of("url", "https://example.com/fast-head"));
        double fast = fastAnswers();
        web().head()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/fast-head")
                .expectHeader()
                .valueEquals("Content-Length", "0")
                .expectBody()
                .isEmpty();
        web().get().uri("/" + code).exchange().expectStatus().isFound(); // a visit, so the writer has something
        assertThat(fastAnswers()).isEqualTo(fast + 2);
        await().atMost(Duration.ofSeconds(90))
                .until(() -> visitRows(code) == 1); // the first batch builds the UA parser
    }

    @Test
    void statusPerLinkAndCacheControlForPermanentRedirects() {
        String moved = create(Map.of("url", "https://example.com/moved", "redirectStatus", 301));
        String temporary = create(Map.of("url", "https://example.com/temp", "redirectStatus", 307));
        String capped = create(Map.of(
                "url",
                "https://example.com/perm-capped",
                "redirectStatus",
                308,
                "expiresAt",
                FakeTime.now.get().plus(Duration.ofDays(1)).toString()));
        double fast = fastAnswers();
        web().get()
                .uri("/" + moved)
                .exchange()
                .expectStatus()
                .isEqualTo(301)
                .expectHeader()
                .valueEquals("Cache-Control", "public, max-age=3600");
        web().get()
                .uri("/" + temporary)
                .exchange()
                .expectStatus()
                .isEqualTo(307)
                .expectHeader()
                .valueEquals("Cache-Control", "private, max-age=0");
        web().get()
                .uri("/" + capped)
                .exchange()
                .expectStatus()
                .isEqualTo(308)
                .expectHeader()
                .valueEquals("Cache-Control", "private, max-age=0"); // it ends: not cacheable
        assertThat(fastAnswers()).isEqualTo(fast + 3);
    }

    @Test
    void visitorsQueryIsForwardedBeforeTheFragment() {
        String code = create(Map.of("url", "https://example.com/land?src=a#top", "forwardQuery", true));
        double fast = fastAnswers();
        web().get()
                .uri("/" + code + "?utm=x y&b=2")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/land?src=a&utm=x%20y&b=2#top");
        web().get()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/land?src=a#top");
        assertThat(fastAnswers()).isEqualTo(fast + 2);
    }

    @Test
    void expiredLinkAnswers410AndDisabledOrDeletedLinksAnswer404() {
        String expiring = create(Map.of(
                "url",
                "https://example.com/expiring",
                "expiresAt",
                FakeTime.now.get().plus(Duration.ofHours(1)).toString()));
        String disabled = create(Map.of("url", "https://example.com/disabled", "disabled", true));
        String deleted = create(Map.of("url", "https://example.com/deleted"));
        web().get().uri("/" + deleted).exchange().expectStatus().isFound();
        admin().delete()
                .uri("/api/v1/links/" + deleted)
                .exchange()
                .expectStatus()
                .isNoContent();
        web().get().uri("/" + deleted).exchange().expectStatus().isNotFound(); // the tombstone is cached now
        web().get().uri("/" + expiring).exchange().expectStatus().isFound();
        FakeTime.now.updateAndGet(instant -> instant.plus(Duration.ofHours(2))); // past its end (the cache is not)

        double fast = fastAnswers();
        web().get()
                .uri("/" + expiring)
                .exchange()
                .expectStatus()
                .isEqualTo(410)
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/link-gone");
        web().get()
                .uri("/" + disabled)
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/link-not-found");
        web().get().uri("/" + deleted).exchange().expectStatus().isNotFound();
        assertThat(fastAnswers()).isEqualTo(fast + 3);
    }

    @Test
    void cappedLinkReadsItsCountWhenNotAtHandAndAnswers410AtTheCap() {
        String code = create(Map.of("url", "https://example.com/capped", "maxVisits", 5));
        double fast = fastAnswers();
        web().get().uri("/" + code).exchange().expectStatus().isFound(); // no count at hand: read, then answered
        web().get().uri("/" + code).exchange().expectStatus().isFound(); // the count read a moment ago is reused

        db.sql("INSERT INTO link_stats (code, stat_date, visits, bot_visits) VALUES (:code, :day, 100, 0) "
                        + "ON DUPLICATE KEY UPDATE visits = visits + 100")
                .bind("code", code)
                .bind("day", LocalDate.ofInstant(FakeTime.now.get(), ZoneOffset.UTC))
                .then()
                .block();
        FakeTime.advance(Duration.ofSeconds(2)); // the reused count is stale now
        web().get().uri("/" + code).exchange().expectStatus().isEqualTo(410); // read again
        web().get()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isEqualTo(410)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/link-gone");
        assertThat(fastAnswers()).isEqualTo(fast + 4);
    }

    @Test
    void codeInNoCacheIsLookedUpAndAnsweredOnTheFastPathToo() {
        String code = create(Map.of("url", "https://example.com/cold"));
        near.invalidate(code);
        double fast = fastAnswers();
        // registered the first time a tier and outcome occur
        Timer before = registry.find("shortgate.redirect")
                .tag("tier", "db")
                .tag("outcome", "found")
                .timer();
        long fromDb = before == null ? 0 : before.count();
        web().get()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/cold");
        assertThat(fastAnswers()).isEqualTo(fast + 1);
        assertThat(registry.get("shortgate.redirect")
                        .tag("tier", "db")
                        .tag("outcome", "found")
                        .timer()
                        .count())
                .isEqualTo(fromDb + 1);
    }

    @Test
    void unknownCodeAnswers404FromItsNegativeEntryAnd429PastTheClientsBudget() {
        WebTestClient scanner = web();
        scanner.get().uri("/NoSuchFastCode").exchange().expectStatus().isNotFound(); // looked up, remembered
        double fast = fastAnswers();
        scanner.get()
                .uri("/NoSuchFastCode")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .valueEquals("Cache-Control", "private, max-age=0")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/link-not-found");
        scanner.get().uri("/NoSuchFastCode").exchange().expectStatus().isNotFound();
        scanner.get()
                .uri("/NoSuchFastCode")
                .exchange()
                .expectStatus()
                .isEqualTo(429)
                .expectHeader()
                .exists("Retry-After")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/rate-limited");
        assertThat(fastAnswers()).isEqualTo(fast + 3);
    }

    @Test
    void keepAliveConnectionMixesFastAndGeneralAnswersInOrderEvenWhenPipelined() throws IOException {
        String hot = create(Map.of("url", "https://example.com/hot"));
        try (Socket socket = socket()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            // cold (general stack: a lookup in the database), then hot twice, then the API, in one write
            out.write((get("/NotCachedYet1") + get("/" + hot) + get("/" + hot) + get("/api/v1/links/" + hot))
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(read(in)).startsWith("HTTP/1.1 404");
            assertThat(read(in)).startsWith("HTTP/1.1 302").contains("https://example.com/hot");
            assertThat(read(in)).startsWith("HTTP/1.1 302").contains("https://example.com/hot");
            assertThat(read(in)).startsWith("HTTP/1.1 401");
            double fast = fastAnswers();
            for (int i = 0; i < 5; i++) { // one at a time: the fast path again
                out.write(get("/" + hot).getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(read(in)).startsWith("HTTP/1.1 302").contains("https://example.com/hot");
            }
            assertThat(fastAnswers()).isEqualTo(fast + 5);
        }
    }

    @Test
    void connectionCloseAndHttp10AreHonouredAndTheConnectionCloses() throws IOException {
        String code = create(Map.of("url", "https://example.com/close"));
        for (String request : new String[] {
            "GET /" + code + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "GET /" + code + " HTTP/1.0\r\n\r\n"
        }) {
            try (Socket socket = socket()) {
                socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(response).containsIgnoringCase("connection: close").contains("https://example.com/close");
            }
        }
        try (Socket socket = socket()) { // HTTP/1.0 asking to keep the connection: kept
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < 2; i++) {
                out.write(("GET /" + code + " HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                assertThat(read(socket.getInputStream()))
                        .startsWith("HTTP/1.0 302")
                        .containsIgnoringCase("keep-alive");
            }
        }
    }

    @Test
    void requestWithABodyIsHandedOnToTheGeneralStack() throws IOException {
        String code = create(Map.of("url", "https://example.com/with-body"));
        double fast = fastAnswers();
        try (Socket socket = socket()) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /" + code + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(read(socket.getInputStream())).startsWith("HTTP/1.1 302");
            out.write(get("/" + code).getBytes(StandardCharsets.US_ASCII));
            assertThat(read(socket.getInputStream())).startsWith("HTTP/1.1 302"); // then fast again
        }
        assertThat(fastAnswers()).isEqualTo(fast + 1);
    }

    @Test
    void managementPortIsNeverAnsweredFromTheNearCache() {
        web().get().uri("/actuator").exchange().expectStatus().isNotFound(); // remembered as an unknown code
        WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + managementPort)
                .build()
                .get()
                .uri("/actuator")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$._links")
                .exists();
    }

    private WebTestClient web() {
        return client.mutate()
                .defaultHeader("X-Forwarded-For", "198.51.100." + clients.incrementAndGet())
                .build();
    }

    private WebTestClient admin() {
        return client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    private String create(Map<String, Object> body) {
        return admin().post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
    }

    private double fastAnswers() {
        return registry.get("shortgate.redirect.fast").counter().count();
    }

    private long visitRows(String code) {
        return db.sql("SELECT COUNT(*) AS n FROM visit WHERE code = :code")
                .bind("code", code)
                .map(row -> ((Number) row.get("n")).longValue())
                .one()
                .block();
    }

    private Socket socket() throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(5_000);
        return socket;
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: 198.51.100.250\r\n\r\n";
    }

    /** One response: its head, and its body when it has a length. */
    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after: " + head);
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                int length = Integer.parseInt(
                        line.substring("content-length:".length()).trim());
                text += new String(in.readNBytes(length), StandardCharsets.US_ASCII);
            }
        }
        return text;
    }
}
