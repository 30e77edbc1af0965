package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import dev.shortgate.redirect.lookup.NearCache;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The redirect path on the embedded H2 database (Redis tier off), through the real HTTP stack. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=test-admin-key-0123456789",
            "spring.r2dbc.url=r2dbc:h2:mem:///redirect-${shortgate.codegen.strategy:hash}?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class RedirectTest {

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        this.web = client.mutate()
                .defaultHeader("X-Api-Key", "test-admin-key-0123456789")
                .build();
    }

    @Autowired
    DatabaseClient db;

    @LocalServerPort
    int port;

    @Autowired
    NearCache nearCache;

    @Autowired
    MeterRegistry registry;

    @Test
    void knownCodeAnswers302WithLocationAndNoCacheHeaders() {
        String code = create("https://example.com/target?a=1&b=%0d%0a");
        web.get()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/target?a=1&b=%0d%0a")
                .expectHeader()
                .valueEquals("Cache-Control", "private, max-age=0")
                .expectHeader()
                .valueEquals("Referrer-Policy", "strict-origin-when-cross-origin")
                .expectBody()
                .isEmpty();
    }

    @Test
    void linkStatusIsUsedAndPermanentRedirectsMayBeCached() {
        insert("perm301", "https://example.com/moved", 301);
        insert("temp307", "https://example.com/temp", 307);
        insert("perm308", "https://example.com/perm", 308);
        web.get()
                .uri("/perm301")
                .exchange()
                .expectStatus()
                .isEqualTo(301)
                .expectHeader()
                .valueEquals("Cache-Control", "public, max-age=3600");
        web.get()
                .uri("/temp307")
                .exchange()
                .expectStatus()
                .isEqualTo(307)
                .expectHeader()
                .valueEquals("Cache-Control", "private, max-age=0");
        web.get()
                .uri("/perm308")
                .exchange()
                .expectStatus()
                .isEqualTo(308)
                .expectHeader()
                .valueEquals("Location", "https://example.com/perm");
    }

    @Test
    void headAnswersAsGetWouldWithAnEmptyBody() {
        String code = create("https://example.com/head");
        web.head()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/head")
                .expectHeader()
                .valueEquals("Content-Length", "0")
                .expectHeader()
                .doesNotExist("Transfer-Encoding")
                .expectBody()
                .isEmpty();
        web.head()
                .uri("/unknown-head")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .isEmpty();
    }

    @Test
    void unknownCodeAnswers404WithATinyProblemBody() {
        byte[] body = web.get()
                .uri("/NoSuchCode")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/link-not-found")
                .returnResult()
                .getResponseBody();
        assertThat(body).hasSizeLessThan(128);
    }

    @Test
    void syntacticallyInvalidCodeAnswers404WithoutALookup() {
        double before = dbLookups("miss");
        web.get().uri("/bad.code").exchange().expectStatus().isNotFound();
        web.get().uri("/" + "x".repeat(65)).exchange().expectStatus().isNotFound();
        web.get().uri("/favicon.ico").exchange().expectStatus().isNotFound();
        assertThat(dbLookups("miss")).isEqualTo(before);
    }

    @Test
    void unknownCodeAnswers404WithoutTouchingDatabaseTwice() {
        double before = dbLookups("miss");
        web.get().uri("/Unknown42").exchange().expectStatus().isNotFound();
        web.get().uri("/Unknown42").exchange().expectStatus().isNotFound();
        web.get().uri("/Unknown42").exchange().expectStatus().isNotFound();
        // once at most: the unknown-code guard may answer without the database at all
        assertThat(dbLookups("miss")).isBetween(before, before + 1);
    }

    @Test
    void creatingACodeDropsItsNegativeEntry() {
        web.get().uri("/later-made").exchange().expectStatus().isNotFound();
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/later", "alias", "later-made"))
                .exchange()
                .expectStatus()
                .isCreated();
        web.get()
                .uri("/later-made")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/later");
    }

    @Test
    void linkFoundInTheDatabaseIsServedFromTheNearCacheNext() {
        insert("fromdb1", "https://example.com/from-db", 302);
        double dbHits = dbLookups("hit");
        web.get().uri("/fromdb1").exchange().expectStatus().isFound();
        web.get().uri("/fromdb1").exchange().expectStatus().isFound();
        assertThat(dbLookups("hit")).isEqualTo(dbHits + 1);
        assertThat(registry.get("shortgate.redirect")
                        .tag("tier", "near")
                        .tag("outcome", "found")
                        .timer()
                        .count())
                .isPositive();
        assertThat(nearCache.getIfPresent("fromdb1")).isNotNull();
    }

    /**
     * reactor-netty#4361 (fixed in Reactor Netty 1.3.8): when a request queued behind one answered off the event
     * loop was itself answered at once, the connection stopped reading, and its next request hung until the
     * client gave up. Here the first lookup goes to the database on a worker thread and the second is a
     * near-cache hit, pipelined in one write, as a keep-alive client behind an ingress can send them.
     */
    @Test
    void keepAliveConnectionStillAnswersAfterPipelinedRequestsFinishOnDifferentThreads() throws Exception {
        insert("pipecold", "https://example.com/cold", 302);
        insert("pipehot", "https://example.com/hot", 302);
        web.get().uri("/pipehot").exchange().expectStatus().isFound();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write((get("/pipecold") + get("/pipehot")).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readHead(in)).startsWith("HTTP/1.1 302").contains("https://example.com/cold");
            assertThat(readHead(in)).startsWith("HTTP/1.1 302").contains("https://example.com/hot");
            for (int i = 0; i < 3; i++) {
                out.write(get("/pipehot").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(readHead(in)).startsWith("HTTP/1.1 302").contains("https://example.com/hot");
            }
        }
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }

    /** Reads one response head; redirects have no body (Content-Length: 0). */
    private static String readHead(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IllegalStateException("connection closed after: " + head);
            }
            head.append((char) b);
        }
        assertThat(head.toString().toLowerCase(java.util.Locale.ROOT)).contains("content-length: 0");
        return head.toString();
    }

    private String create(String url) {
        return web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url))
                .exchange()
                .expectStatus()
                .is2xxSuccessful()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
    }

    private void insert(String code, String url, int status) {
        db.sql("INSERT INTO link (code, long_url, long_url_hash, alias, redirect_status, created_at) "
                        + "VALUES (:code, :url, :hash, TRUE, :status, CURRENT_TIMESTAMP)")
                .bind("code", code)
                .bind("url", url)
                .bind("hash", new byte[32])
                .bind("status", status)
                .then()
                .block();
    }

    private double dbLookups(String result) {
        return registry.get("shortgate.lookups")
                .tag("tier", "db")
                .tag("result", result)
                .counter()
                .count();
    }
}
