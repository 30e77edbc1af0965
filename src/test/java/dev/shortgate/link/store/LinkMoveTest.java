package dev.shortgate.link.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.shortgate.link.Link;
import dev.shortgate.system.database.LinkTables;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * Links written in the one-table layout ({@code link}) keep working in the split layout, and the move command takes
 * them into their tables in batches while they are read, created against and changed.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + LinkMoveTest.KEY,
            "shortgate.storage.table-split=first-char",
            "shortgate.storage.move-batch-size=3",
            "spring.r2dbc.url=r2dbc:h2:mem:///linkmove?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class LinkMoveTest {

    static final String KEY = "linkmove-admin-key-01234";
    static final MediaType MERGE_PATCH = MediaType.parseMediaType("application/merge-patch+json");

    WebTestClient web;

    @Autowired
    DatabaseClient db;

    @Autowired
    LinkRepository links;

    @Autowired
    LinkMove move;

    @LocalManagementPort
    int managementPort;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void rowsNotMovedYetRedirectAreFoundAndKeepTheirCodes() {
        legacy("oLd001", "https://example.com/legacy/found");

        web.get()
                .uri("/oLd001")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/legacy/found");
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/legacy/found", "length", 6))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("oLd001");
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/legacy/other", "alias", "oLd001"))
                .exchange()
                .expectStatus()
                .isEqualTo(409);
        assertThat(count("SELECT COUNT(*) AS n FROM " + LinkTables.splitTable("oLd001") + " WHERE code = 'oLd001'"))
                .isZero();
    }

    @Test
    void moveTakesEveryRowToItsTableWhileReadsKeepFindingIt() {
        List<String> codes = IntStream.range(0, 20)
                .mapToObj(i -> "0aAzZ".charAt(i % 5) + "mv00" + i)
                .toList();
        codes.forEach(code -> legacy(code, "https://example.com/moving/" + code));

        Flux<Boolean> reads = Flux.range(0, 400).concatMap(i -> links.findByCode(codes.get(i % codes.size()))
                .map(link -> link.url().endsWith(link.code()))
                .defaultIfEmpty(false));
        StepVerifier.create(Mono.zip(move.moveAll(), reads.all(found -> found)))
                .assertNext(done -> {
                    assertThat(done.getT1()).isGreaterThanOrEqualTo(codes.size());
                    assertThat(done.getT2()).as("every read found its link").isTrue();
                })
                .verifyComplete();

        assertThat(count("SELECT COUNT(*) AS n FROM link")).isZero();
        for (String code : codes) {
            assertThat(count("SELECT COUNT(*) AS n FROM " + LinkTables.splitTable(code) + " WHERE code = '" + code
                            + "'"))
                    .as(code)
                    .isEqualTo(1);
        }
        assertThat(count("SELECT COUNT(*) AS n FROM link_create_key WHERE code LIKE '_mv00%'"))
                .isEqualTo(codes.size());
    }

    @Test
    void movedLinksAreFoundChangedAndDeletedAndTheirCodesStayTaken() {
        legacy("mOved1", "https://example.com/legacy/moved");

        management()
                .post()
                .uri("/actuator/linktables")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.rowsInLink")
                .isEqualTo(0);
        management()
                .get()
                .uri("/actuator/linktables")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tableSplit")
                .isEqualTo("first-char")
                .jsonPath("$.rowsInLink")
                .isEqualTo(0);

        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/legacy/moved", "length", 6))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("mOved1");
        web.patch()
                .uri("/api/v1/links/mOved1")
                .contentType(MERGE_PATCH)
                .bodyValue(Map.of("redirectStatus", 307))
                .exchange()
                .expectStatus()
                .isOk();
        web.get().uri("/mOved1").exchange().expectStatus().isEqualTo(307);
        assertThat(count("SELECT COUNT(*) AS n FROM link_create_key WHERE code = 'mOved1'"))
                .as("a changed link leaves find-if-exists, and its claim goes")
                .isZero();
        web.delete().uri("/api/v1/links/mOved1").exchange().expectStatus().isNoContent();
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/legacy/new", "alias", "mOved1"))
                .exchange()
                .expectStatus()
                .isEqualTo(409);
    }

    /** A live generated link written as the one-table layout wrote it, create key included. */
    private void legacy(String code, String url) {
        Link link = new Link(
                code,
                url,
                302,
                false,
                Instant.now().truncatedTo(ChronoUnit.MILLIS),
                null,
                null,
                false,
                false,
                null,
                null);
        db.sql("INSERT INTO link (code, long_url, long_url_hash, alias, redirect_status, created_at, create_key) "
                        + "VALUES (:code, :url, :hash, FALSE, 302, :createdAt, :key)")
                .bind("code", code)
                .bind("url", url)
                .bind("hash", LinkRows.hash(url))
                .bind("createdAt", LinkRows.toDb(link.createdAt()))
                .bind("key", LinkRows.createKey(link, code.length()))
                .then()
                .block(Duration.ofSeconds(10));
    }

    private long count(String sql) {
        return db.sql(sql).map(row -> ((Number) row.get("n")).longValue()).one().block(Duration.ofSeconds(10));
    }

    private WebTestClient management() {
        return WebTestClient.bindToServer()
                .baseUrl("http://localhost:" + managementPort)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }
}
