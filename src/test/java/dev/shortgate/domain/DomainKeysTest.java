package dev.shortgate.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.test.StepVerifier;

/**
 * API keys limited to one domain on the embedded H2 database: made only for a domain that exists, listed with it,
 * an admin key of one domain changes any link of it but no admin-only endpoint, Shlink's tags and totals count only
 * its domain, and a key whose domain was removed sees nothing.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + DomainKeysTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.visit.flush-interval=50ms",
            "spring.r2dbc.url=r2dbc:h2:mem:///domainkeys?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class DomainKeysTest {

    static final String KEY = "domain-keys-admin-key-0123";
    static final String NOT_ALLOWED = "https://shortgate.dev/problems/domain-not-allowed";

    WebTestClient admin;

    @LocalServerPort
    int port;

    @Autowired
    DatabaseClient db;

    @Autowired
    void client(WebTestClient client) {
        admin = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void aKeyForADomainThatWasNotAddedIsRefusedAndNoKeyIsStored() {
        long before = keys();
        admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "nowhere", "scope", "read", "domain", "nowhere.example"))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/unknown-domain");
        admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "bad", "scope", "read", "domain", "not a host"))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-domain");
        assertThat(keys()).isEqualTo(before);
    }

    @Test
    void anAdminKeyOfOneDomainChangesAnyLinkOfItButNoAdminOnlyEndpoint() {
        addDomain("brand.example");
        create(admin, Map.of("url", "https://example.com/brand", "alias", "brand", "domain", "brand.example"));
        WebTestClient key = client(newKey("admin", "brand.example"));
        admin.get()
                .uri("/api/v1/keys")
                .exchange()
                .expectBody()
                .jsonPath("$.keys[?(@.name == 'admin@brand.example')].domain")
                .isEqualTo("brand.example");

        key.patch()
                .uri("/api/v1/links/brand")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/brand-changed"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domain")
                .isEqualTo("brand.example");
        for (String path : List.of("/api/v1/keys", "/api/v1/domains", "/rest/v3/mercure-info")) {
            key.get()
                    .uri(path)
                    .exchange()
                    .expectStatus()
                    .isForbidden()
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo(NOT_ALLOWED);
        }
        key.delete() // it lists its own domain's orphan visits (OrphanVisitDomainsTest), but deletes no one's
                .uri("/api/v1/visits/orphan")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(NOT_ALLOWED);
        long before = keys();
        key.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "escalated", "scope", "admin"))
                .exchange()
                .expectStatus()
                .isForbidden();
        assertThat(keys()).isEqualTo(before);
    }

    @Test
    void shlinksTagsAndTotalsForAKeyOfOneDomainCountOnlyThatDomain() {
        addDomain("tags.example");
        shlinkCreate(
                Map.of("longUrl", "https://example.com/tag-mine", "tags", List.of("mine"), "domain", "tags.example"));
        shlinkCreate(Map.of("longUrl", "https://example.com/tag-theirs", "tags", List.of("theirs")));
        WebTestClient key = client(newKey("read", "tags.example"));

        key.get()
                .uri("/rest/v3/tags")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags.data")
                .isEqualTo(List.of("mine"));
        key.get()
                .uri("/rest/v3/tags/theirs/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.data.length()")
                .isEqualTo(0);
        key.get()
                .uri("/rest/v3/visits/orphan")
                .exchange()
                .expectBody()
                .jsonPath("$.visits.data.length()")
                .isEqualTo(0);
    }

    @Test
    void aKeyWhoseDomainWasRemovedSeesAndCreatesNothing() {
        addDomain("gone.example");
        WebTestClient key = client(newKey("create", "gone.example"));
        admin.delete()
                .uri("/api/v1/domains/gone.example")
                .exchange()
                .expectStatus()
                .isNoContent();
        long links = count("SELECT COUNT(*) AS n FROM link");

        key.get().uri("/api/v1/links").exchange().expectStatus().isForbidden();
        key.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/orphaned-key"))
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(NOT_ALLOWED);
        key.get().uri("/rest/v3/short-urls").exchange().expectStatus().isForbidden();
        assertThat(count("SELECT COUNT(*) AS n FROM link")).isEqualTo(links);
    }

    private void addDomain(String host) {
        admin.post()
                .uri("/api/v1/domains")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", host))
                .exchange()
                .expectStatus()
                .isCreated();
    }

    private static void create(WebTestClient client, Map<String, Object> body) {
        client.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isCreated();
    }

    private void shlinkCreate(Map<String, Object> body) {
        admin.post()
                .uri("/rest/v3/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isOk();
    }

    private String newKey(String scope, String domain) {
        Map<?, ?> created = admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", scope + "@" + domain, "scope", scope, "domain", domain))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        assertThat(created.get("domain")).isEqualTo(domain);
        return (String) created.get("key");
    }

    private WebTestClient client(String key) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port)
                .defaultHeader("X-Api-Key", key)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }

    private long keys() {
        return count("SELECT COUNT(*) AS n FROM api_key");
    }

    private long count(String sql) {
        long[] n = new long[1];
        StepVerifier.create(db.sql(sql)
                        .map(row -> ((Number) row.get("n")).longValue())
                        .one())
                .consumeNextWith(value -> n[0] = value)
                .verifyComplete();
        return n[0];
    }
}
