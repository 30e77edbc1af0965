package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.StatusAssertions;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Orphan visits and traffic per short domain on the embedded H2 database, through the real HTTP stack: each orphan
 * visit records the domain its host picked, both APIs show and filter it, a key limited to one domain sees only that
 * domain's, the stats break visits and orphan visits down by domain, and redirects are counted per domain.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + OrphanVisitDomainsTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.visit.flush-interval=50ms",
            "shortgate.visit.counts-flush-interval=100ms",
            "spring.r2dbc.url=r2dbc:h2:mem:///orphandomains?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class OrphanVisitDomainsTest {

    static final String KEY = "orphan-domains-admin-key-0123";
    static final String NOT_ALLOWED = "https://shortgate.dev/problems/domain-not-allowed";
    static final String CHROME =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

    WebTestClient admin;
    WebTestClient anonymous;

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry registry;

    @Autowired
    void client(WebTestClient client) {
        admin = client.mutate().defaultHeader("X-Api-Key", KEY).build();
        anonymous =
                client.mutate().defaultHeader(HttpHeaders.USER_AGENT, CHROME).build();
    }

    @BeforeEach
    void startFromNoOrphanVisitsAndTwoDomains() {
        admin.delete().uri("/api/v1/visits/orphan").exchange().expectStatus().isOk();
        for (String host : List.of("b.test", "c.test")) {
            admin.post()
                    .uri("/api/v1/domains")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("domain", host))
                    .exchange(); // 201, or 409 when an earlier test added it
        }
    }

    @Test
    void eachOrphanVisitRecordsTheDomainItsHostPickedAndTheNativeApiFiltersByIt() {
        visit("sho.rt", "/no-such-code").isNotFound();
        visit("b.test", "/no-such-code").isNotFound();
        visit("b.test", "/").isNotFound();
        visit("B.TEST:8080", "/wp-admin/x.php").isNotFound();
        visit("stranger.example", "/unknown-host").isNotFound(); // none of ours: the default domain

        awaitOrphans(5);
        admin.get()
                .uri("/api/v1/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.totals.total")
                .isEqualTo(5)
                .jsonPath("$.visits[?(@.path == '/unknown-host')].domain")
                .isEqualTo(List.of("sho.rt"))
                .jsonPath("$.visits[?(@.path == '/wp-admin/x.php')].domain")
                .isEqualTo(List.of("b.test"));
        admin.get()
                .uri("/api/v1/visits/orphan?domain=b.test")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.totals.total")
                .isEqualTo(3)
                .jsonPath("$.visits.length()")
                .isEqualTo(3)
                .jsonPath("$.visits[*].domain")
                .isEqualTo(List.of("b.test", "b.test", "b.test"))
                .jsonPath("$.visits[*].type")
                .isEqualTo(List.of("regular_404", "base_url", "invalid_short_url"));
        admin.get()
                .uri("/api/v1/visits/orphan?domain=sho.rt&type=invalid_short_url")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.totals.total")
                .isEqualTo(2) // the totals are the domain's, of every type
                .jsonPath("$.visits[*].path")
                .isEqualTo(List.of("/unknown-host", "/no-such-code"));
        admin.get()
                .uri("/api/v1/visits/orphan?domain=nowhere.example")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/unknown-domain");
    }

    @Test
    void aKeyLimitedToOneDomainSeesOnlyThatDomainsOrphanVisitsInBothApis() {
        visit("sho.rt", "/mine-not").isNotFound();
        visit("c.test", "/mine").isNotFound();
        visit("c.test", "/").isNotFound();
        awaitOrphans(3);
        WebTestClient key = client(newKey("read", "c.test"));

        key.get()
                .uri("/api/v1/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.totals.total")
                .isEqualTo(2)
                .jsonPath("$.visits[*].path")
                .isEqualTo(List.of("/", "/mine"));
        key.get()
                .uri("/api/v1/visits/orphan?domain=sho.rt")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(NOT_ALLOWED);
        String shlink = key.get()
                .uri("/rest/v3/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits_orphan.json", "get", "200", shlink);
        assertThat(shlink)
                .contains(
                        "\"totalItems\":2",
                        "\"visitedUrl\":\"https://c.test/mine\"",
                        "\"visitedUrl\":\"https://c.test/\"")
                .doesNotContain("mine-not");
        key.get()
                .uri("/rest/v3/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.orphanVisits.total")
                .isEqualTo(2);
        key.get()
                .uri("/rest/v3/visits/orphan?domain=DEFAULT")
                .exchange()
                .expectStatus()
                .isForbidden();
    }

    @Test
    void shlinksDomainQueryKeepsOneDomainsOrphanVisitsShownOnItsHost() {
        visit("sho.rt", "/on-default").isNotFound();
        visit("b.test", "/on-b").isNotFound();
        awaitOrphans(2);

        admin.get()
                .uri("/rest/v3/visits/orphan?domain=DEFAULT")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.data[*].visitedUrl")
                .isEqualTo(List.of("https://sho.rt/on-default"));
        admin.get()
                .uri("/rest/v3/visits/orphan?domain=b.test")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.data[*].visitedUrl")
                .isEqualTo(List.of("https://b.test/on-b"));
        admin.get()
                .uri("/rest/v3/visits/orphan?domain=nowhere.example")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(0);
        admin.get()
                .uri("/rest/v3/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(2);
    }

    @Test
    void theStatsBreakVisitsAndOrphanVisitsDownByDomainAndRedirectsAreCountedPerDomain() {
        double before = redirects("b.test");
        create(Map.of("url", "https://example.com/stats-b", "alias", "stats", "domain", "b.test"));
        create(Map.of("url", "https://example.com/stats-default", "alias", "stats"));
        visit("b.test", "/stats").isFound();
        visit("b.test", "/stats").isFound();
        visit("sho.rt", "/stats").isFound();
        visit("b.test", "/stats-missing").isNotFound();

        assertThat(redirects("b.test")).isEqualTo(before + 2);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> admin.get()
                .uri("/api/v1/visits/domains")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains[*].domain")
                .isEqualTo(List.of("sho.rt", "b.test", "c.test"))
                .jsonPath("$.domains[0].isDefault")
                .isEqualTo(true)
                .jsonPath("$.domains[1].visits.total")
                .isEqualTo(2)
                .jsonPath("$.domains[1].orphanVisits.total")
                .isEqualTo(1)
                .jsonPath("$.domains[2].visits.total")
                .isEqualTo(0));
        admin.get()
                .uri("/api/v1/visits/domains?domain=sho.rt")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains.length()")
                .isEqualTo(1)
                .jsonPath("$.domains[0].visits.total")
                .isEqualTo(1);
        admin.get()
                .uri("/api/v1/visits/domains?from=2001-01-01&to=2001-01-31")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains[1].visits.total")
                .isEqualTo(0);
        WebTestClient key = client(newKey("read", "b.test"));
        key.get()
                .uri("/api/v1/visits/domains")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains[*].domain")
                .isEqualTo(List.of("b.test"))
                .jsonPath("$.domains[0].visits.total")
                .isEqualTo(2);
        key.get()
                .uri("/api/v1/visits/domains?domain=c.test")
                .exchange()
                .expectStatus()
                .isForbidden();
        admin.get()
                .uri("/api/v1/visits/domains?from=2025-02-01&to=2025-01-01")
                .exchange()
                .expectStatus()
                .isBadRequest();
    }

    private StatusAssertions visit(String host, String path) {
        return anonymous
                .get()
                .uri(path)
                .header(HttpHeaders.HOST, host)
                .exchange()
                .expectStatus();
    }

    private void awaitOrphans(long total) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> admin.get()
                .uri("/api/v1/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.totals.total")
                .isEqualTo(total)
                .jsonPath("$.visits.length()")
                .isEqualTo(total));
    }

    private double redirects(String domain) {
        var counter = registry.find("shortgate.domain.redirects")
                .tag("domain", domain)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private void create(Map<String, Object> body) {
        admin.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isCreated();
    }

    private String newKey(String scope, String domain) {
        Map<?, ?> created = admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", scope + "@" + domain + System.nanoTime(), "scope", scope, "domain", domain))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        return (String) created.get("key");
    }

    private WebTestClient client(String key) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .defaultHeader("X-Api-Key", key)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }
}
