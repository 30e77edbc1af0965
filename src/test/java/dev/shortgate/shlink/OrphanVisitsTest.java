package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Orphan visits on the embedded H2 database, through the real HTTP stack and its fast path: requests for unknown
 * codes, for the base URL and other 404s on the traffic port are recorded, listed by Shlink's API (checked against
 * its pinned schemas) and Shortgate's, counted exactly in the overview, and deleted. Each test starts from none.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + OrphanVisitsTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.visit.flush-interval=50ms",
            "shortgate.visit.counts-flush-interval=100ms",
            "spring.r2dbc.url=r2dbc:h2:mem:///orphans?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class OrphanVisitsTest {

    static final String KEY = "orphan-admin-key-0123456789";
    static final String API = "/rest/v3";
    static final String CHROME =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) " + "Chrome/120.0 Safari/537.36";
    static final String GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    WebTestClient anonymous;
    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        anonymous =
                client.mutate().defaultHeader(HttpHeaders.USER_AGENT, CHROME).build();
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @BeforeEach
    void startFromNone() {
        web.delete().uri(API + "/visits/orphan").exchange().expectStatus().isOk();
    }

    @Test
    void unknownCodesTheBaseUrlAndOther404sAreOrphanVisitsOfTheirType() {
        anonymous
                .get()
                .uri("/no-such-code?utm_source=mail")
                .header(HttpHeaders.REFERER, "https://news.example/")
                .exchange()
                .expectStatus()
                .isNotFound(); // the fast path
        anonymous.get().uri("/favicon.ico").exchange().expectStatus().isNotFound(); // the general route
        anonymous.get().uri("/").exchange().expectStatus().isNotFound();
        anonymous
                .get()
                .uri("/wp-admin/setup.php?step=1")
                .exchange()
                .expectStatus()
                .isNotFound();
        // Not orphan visits: HEAD, the APIs' own 404s.
        anonymous.head().uri("/no-such-code").exchange().expectStatus().isNotFound();
        web.get().uri("/api/v1/links/no-such-code").exchange().expectStatus().isNotFound();
        web.get()
                .uri(API + "/short-urls/no-such-code")
                .exchange()
                .expectStatus()
                .isNotFound();

        awaitOverview(4, 0);
        String body = web.get()
                .uri(API + "/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits_orphan.json", "get", "200", body);
        assertThat(body)
                .contains(
                        "\"totalItems\":4",
                        "\"visitedUrl\":\"https://sho.rt/no-such-code?utm_source=mail\",\"redirectUrl\":null,"
                                + "\"type\":\"invalid_short_url\"",
                        "\"visitedUrl\":\"https://sho.rt/favicon.ico\",\"redirectUrl\":null,\"type\":\"invalid_short_url\"",
                        "\"visitedUrl\":\"https://sho.rt/\",\"redirectUrl\":null,\"type\":\"base_url\"",
                        "\"visitedUrl\":\"https://sho.rt/wp-admin/setup.php?step=1\",\"redirectUrl\":null,"
                                + "\"type\":\"regular_404\"",
                        "\"referer\":\"https://news.example/\"");
        web.get()
                .uri(API + "/visits/orphan?type=base_url")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(1)
                .jsonPath("$.visits.data[0].visitedUrl")
                .isEqualTo("https://sho.rt/");
        web.get()
                .uri(API + "/visits/orphan?type=invalid_short_url&page=2&itemsPerPage=1")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.pagesCount")
                .isEqualTo(2)
                .jsonPath("$.visits.data[0].visitedUrl")
                .isEqualTo("https://sho.rt/no-such-code?utm_source=mail");
    }

    @Test
    void botsAndDatesFilterTheListAndTheOverviewCountsBotsApart() {
        anonymous
                .get()
                .uri("/bot-was-here")
                .header(HttpHeaders.USER_AGENT, GOOGLEBOT)
                .exchange()
                .expectStatus()
                .isNotFound();
        anonymous.get().uri("/person-was-here").exchange().expectStatus().isNotFound();

        awaitOverview(2, 1);
        web.get()
                .uri(API + "/visits/orphan?excludeBots=true")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(1)
                .jsonPath("$.visits.data[0].potentialBot")
                .isEqualTo(false);
        web.get()
                .uri(API + "/visits/orphan?startDate=2999-01-01")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(0);
        web.get()
                .uri(API + "/visits/orphan?endDate=2001-01-01T00:00:00Z")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(0);
        web.get()
                .uri(API + "/visits/orphan?startDate=2001-01-01&endDate=2999-01-01")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(2);
    }

    @Test
    void aDeletedLinkIsAnInvalidShortUrl() {
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/orphan/deleted", "alias", "gone-now"))
                .exchange()
                .expectStatus()
                .isCreated();
        anonymous.get().uri("/gone-now").exchange().expectStatus().isFound();
        web.delete().uri("/api/v1/links/gone-now").exchange().expectStatus().isNoContent();
        anonymous.get().uri("/gone-now").exchange().expectStatus().isNotFound();

        awaitOverview(1, 0);
        web.get()
                .uri(API + "/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.data[0].visitedUrl")
                .isEqualTo("https://sho.rt/gone-now")
                .jsonPath("$.visits.data[0].type")
                .isEqualTo("invalid_short_url");
    }

    @Test
    void deleteRemovesRowsAndCountsAndNeedsAnAdminKey() {
        anonymous.get().uri("/delete-me-1").exchange().expectStatus().isNotFound();
        anonymous.get().uri("/delete/me/2").exchange().expectStatus().isNotFound();
        awaitOverview(2, 0);
        awaitListed(2);

        String readKey = newKey("orphan-reader", "read");
        String creatorKey = newKey("orphan-creator", "create");
        anonymous
                .delete()
                .uri(API + "/visits/orphan")
                .header("X-Api-Key", readKey)
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/forbidden-operation");
        anonymous
                .delete()
                .uri(API + "/visits/orphan")
                .header("X-Api-Key", creatorKey)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.deletedVisits")
                .isEqualTo(0);
        // A key that sees only its own links sees no orphan visits (Shlink's NO_ORPHAN_VISITS role).
        anonymous
                .get()
                .uri(API + "/visits/orphan")
                .header("X-Api-Key", creatorKey)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(0);
        anonymous
                .get()
                .uri(API + "/visits")
                .header("X-Api-Key", creatorKey)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.orphanVisits.total")
                .isEqualTo(0);
        anonymous
                .get()
                .uri(API + "/visits/orphan")
                .header("X-Api-Key", readKey)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(2);

        String deleted = web.delete()
                .uri(API + "/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits_orphan.json", "delete", "200", deleted);
        assertThat(deleted).isEqualTo("{\"deletedVisits\":2}");
        web.get()
                .uri(API + "/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.orphanVisits.total")
                .isEqualTo(0);
        web.get()
                .uri(API + "/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(0);
    }

    @Test
    void shortgatesApiListsOrphanVisitsWithExactTotalsAndACursor() {
        anonymous.get().uri("/first-orphan").exchange().expectStatus().isNotFound();
        anonymous
                .get()
                .uri("/second/orphan")
                .header(HttpHeaders.USER_AGENT, GOOGLEBOT)
                .exchange()
                .expectStatus()
                .isNotFound();
        awaitOverview(2, 1);
        awaitListed(2);

        web.get()
                .uri("/api/v1/visits/orphan?limit=1")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.totals.total")
                .isEqualTo(2)
                .jsonPath("$.totals.bots")
                .isEqualTo(1)
                .jsonPath("$.visits.length()")
                .isEqualTo(1)
                .jsonPath("$.visits[0].type")
                .isEqualTo("regular_404")
                .jsonPath("$.visits[0].path")
                .isEqualTo("/second/orphan")
                .jsonPath("$.visits[0].bot")
                .isEqualTo(true);
        String next = cursor("/api/v1/visits/orphan?limit=1");
        web.get()
                .uri("/api/v1/visits/orphan?limit=1&cursor=" + next)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits[0].path")
                .isEqualTo("/first-orphan")
                .jsonPath("$.visits[0].type")
                .isEqualTo("invalid_short_url");
        web.get()
                .uri("/api/v1/visits/orphan?type=invalid_short_url&bots=false")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.length()")
                .isEqualTo(1);
        web.get()
                .uri("/api/v1/visits/orphan?type=sideways")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("type");
        String creatorKey = newKey("orphan-api-creator", "create");
        anonymous
                .get()
                .uri("/api/v1/visits/orphan")
                .header("X-Api-Key", creatorKey)
                .exchange()
                .expectStatus()
                .isForbidden();
        web.delete()
                .uri("/api/v1/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.deletedVisits")
                .isEqualTo(2);
    }

    private String cursor(String uri) {
        byte[] body = web.get()
                .uri(uri)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        String json = new String(body, StandardCharsets.UTF_8);
        return json.replaceAll(".*\"nextCursor\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    }

    /**
     * Waits until the overview counts this many orphan visits (and bots among them), then checks its schema. A fresh
     * pod's first visits wait for the user-agent parser to be built, which takes long on a loaded machine.
     */
    private void awaitOverview(long total, long bots) {
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> web.get()
                .uri(API + "/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.orphanVisits.total")
                .isEqualTo(total)
                .jsonPath("$.visits.orphanVisits.bots")
                .isEqualTo(bots)
                .jsonPath("$.visits.orphanVisits.nonBots")
                .isEqualTo(total - bots));
        String overview = web.get()
                .uri(API + "/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits.json", "get", "200", overview);
        awaitListed(total);
    }

    private void awaitListed(long rows) {
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> web.get()
                .uri(API + "/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(rows));
    }

    private String newKey(String name, String scope) {
        byte[] body = web.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", name, "scope", scope))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody();
        String json = new String(body, StandardCharsets.UTF_8);
        return json.replaceAll(".*\"key\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    }
}
