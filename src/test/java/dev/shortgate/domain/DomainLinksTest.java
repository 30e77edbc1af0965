package dev.shortgate.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The same code on two domains, served by host; per-domain find-if-exists, reads, deletes and listings. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + DomainLinksTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "spring.r2dbc.url=r2dbc:h2:mem:///domainlinks?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class DomainLinksTest {

    static final String KEY = "domain-links-admin-key-0123";
    static final String PROBLEM = "https://shortgate.dev/problems/";

    WebTestClient web;

    @Autowired
    DatabaseClient db;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @BeforeEach
    void domains() {
        for (String domain : new String[] {"a.test", "b.test"}) {
            web.post()
                    .uri("/api/v1/domains")
                    .bodyValue(Map.of("domain", domain))
                    .exchange();
        }
    }

    @Test
    void theSameCodeOnTwoDomainsRedirectsByHost() {
        create(Map.of("url", "https://example.com/on-a", "alias", "same", "domain", "a.test"))
                .expectStatus()
                .isCreated()
                .expectHeader()
                .location("/api/v1/links/same?domain=a.test")
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("same")
                .jsonPath("$.domain")
                .isEqualTo("a.test")
                .jsonPath("$.shortUrl")
                .isEqualTo("https://a.test/same");
        create(Map.of("url", "https://example.com/on-b", "alias", "same", "domain", "B.Test"))
                .expectStatus()
                .isCreated();
        redirect("a.test", "/same").expectStatus().isFound().expectHeader().location("https://example.com/on-a");
        redirect("b.test:8080", "/same").expectStatus().isFound().expectHeader().location("https://example.com/on-b");
        redirect("sho.rt", "/same").expectStatus().isNotFound();
        // X-Forwarded-Host counts only from a trusted proxy; none is configured here
        web.get()
                .uri("/same")
                .header("Host", "a.test")
                .header("X-Forwarded-Host", "b.test")
                .exchange()
                .expectHeader()
                .location("https://example.com/on-a");
        redirect("elsewhere.example", "/same").expectStatus().isNotFound(); // an unknown host is the default domain
        // a key typed as a code never reaches another domain's link
        redirect("sho.rt", "/" + idOf("a.test") + "~same").expectStatus().isNotFound();
    }

    @Test
    void theDefaultDomainStillServesItsCodesUnchanged() {
        create(Map.of("url", "https://example.com/default", "alias", "plain"))
                .expectStatus()
                .isCreated()
                .expectBody()
                .jsonPath("$.domain")
                .doesNotExist()
                .jsonPath("$.shortUrl")
                .isEqualTo("https://sho.rt/plain");
        assertThat(db.sql("SELECT COUNT(*) AS n FROM link_all WHERE code = 'plain'")
                        .map(row -> ((Number) row.get("n")).longValue())
                        .one()
                        .block())
                .isEqualTo(1);
        redirect("sho.rt", "/plain").expectStatus().isFound();
        redirect("a.test", "/plain").expectStatus().isNotFound();
    }

    @Test
    void findIfExistsIsPerDomain() {
        String url = "https://example.com/find-per-domain";
        String onA = code(
                create(Map.of("url", url, "domain", "a.test")).expectStatus().isCreated());
        String again = code(
                create(Map.of("url", url, "domain", "a.test")).expectStatus().isOk());
        assertThat(again).isEqualTo(onA);
        String onDefault = code(create(Map.of("url", url)).expectStatus().isCreated());
        String onB = code(
                create(Map.of("url", url, "domain", "b.test")).expectStatus().isCreated());
        assertThat(onDefault).isNotNull();
        assertThat(onB).isNotNull();
        redirect("a.test", "/" + onA).expectStatus().isFound().expectHeader().location(url);
        redirect("b.test", "/" + onB).expectStatus().isFound().expectHeader().location(url);
        redirect("sho.rt", "/" + onDefault)
                .expectStatus()
                .isFound()
                .expectHeader()
                .location(url);
    }

    @Test
    void readsChangesDeletesAndListsNameTheDomain() {
        create(Map.of("url", "https://example.com/rcd-a", "alias", "rcd", "domain", "a.test"))
                .expectStatus()
                .isCreated();
        create(Map.of("url", "https://example.com/rcd-b", "alias", "rcd", "domain", "b.test"))
                .expectStatus()
                .isCreated();
        web.get()
                .uri("/api/v1/links/rcd?domain=a.test")
                .exchange()
                .expectBody()
                .jsonPath("$.url")
                .isEqualTo("https://example.com/rcd-a");
        web.get().uri("/api/v1/links/rcd").exchange().expectStatus().isNotFound();
        web.get()
                .uri("/api/v1/links/rcd/stats?domain=a.test")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("rcd");
        web.get()
                .uri("/api/v1/links/rcd/visits?domain=b.test")
                .exchange()
                .expectStatus()
                .isOk();
        web.get().uri("/api/v1/links/rcd/stats").exchange().expectStatus().isNotFound();
        web.get()
                .uri("/api/v1/links/rcd?domain=nowhere.example")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "unknown-domain");
        web.patch()
                .uri("/api/v1/links/rcd?domain=b.test")
                .header("Content-Type", "application/merge-patch+json")
                .bodyValue(Map.of("url", "https://example.com/rcd-b2"))
                .exchange()
                .expectStatus()
                .isOk();
        redirect("b.test", "/rcd").expectHeader().location("https://example.com/rcd-b2");
        redirect("a.test", "/rcd").expectHeader().location("https://example.com/rcd-a");
        web.get()
                .uri("/api/v1/links?domain=b.test&limit=100")
                .exchange()
                .expectBody()
                .jsonPath("$.links[?(@.code == 'rcd')].url")
                .isEqualTo("https://example.com/rcd-b2")
                .jsonPath("$.links[?(@.domain != 'b.test')]")
                .doesNotExist();
        web.get()
                .uri("/api/v1/links?limit=100")
                .exchange()
                .expectBody()
                .jsonPath("$.links[?(@.domain)]")
                .doesNotExist();

        web.delete()
                .uri("/api/v1/domains/a.test")
                .exchange()
                .expectStatus()
                .isEqualTo(409)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "domain-in-use");
        web.delete()
                .uri("/api/v1/links/rcd?domain=a.test")
                .exchange()
                .expectStatus()
                .isNoContent();
        redirect("a.test", "/rcd").expectStatus().isNotFound();
        redirect("b.test", "/rcd").expectStatus().isFound();
    }

    @Test
    void aCodeMissingOnAnotherDomainIsNamedAsTypedNeverByItsStoredKey() {
        web.get()
                .uri("/api/v1/links/absent?domain=a.test")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("absent")
                .jsonPath("$.detail")
                .isEqualTo("No link has the code 'absent'.");
        web.patch()
                .uri("/api/v1/links/absent?domain=a.test")
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/changed"))
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("absent");
    }

    @Test
    void anAliasTooLongWithItsDomainIsRefused() {
        create(Map.of("url", "https://example.com/long", "alias", "x".repeat(64), "domain", "a.test"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "invalid-alias");
    }

    @Test
    void shlinksApiCreatesAndListsLinksOnAnotherDomain() {
        web.post()
                .uri("/rest/v3/short-urls")
                .bodyValue(Map.of("longUrl", "https://example.com/shlink-a", "customSlug", "sh", "domain", "a.test"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.shortCode")
                .isEqualTo("sh")
                .jsonPath("$.domain")
                .isEqualTo("a.test")
                .jsonPath("$.shortUrl")
                .isEqualTo("https://a.test/sh");
        redirect("a.test", "/sh").expectStatus().isFound().expectHeader().location("https://example.com/shlink-a");
        web.post()
                .uri("/rest/v3/short-urls")
                .bodyValue(Map.of("longUrl", "https://example.com/shlink-x", "domain", "nowhere.example"))
                .exchange()
                .expectStatus()
                .isBadRequest();
        web.get()
                .uri("/rest/v3/domains")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains.data[0].isDefault")
                .isEqualTo(true)
                .jsonPath("$.domains.data[?(@.domain == 'a.test')].isDefault")
                .isEqualTo(false);
    }

    private int idOf(String host) {
        return db.sql("SELECT id FROM domains WHERE host = :host")
                .bind("host", host)
                .map(row -> ((Number) row.get("id")).intValue())
                .one()
                .block();
    }

    private static String code(WebTestClient.ResponseSpec response) {
        Map<?, ?> body = response.expectBody(Map.class).returnResult().getResponseBody();
        return body == null ? null : (String) body.get("code");
    }

    private WebTestClient.ResponseSpec create(Map<String, Object> body) {
        return web.post().uri("/api/v1/links").bodyValue(new HashMap<>(body)).exchange();
    }

    private WebTestClient.ResponseSpec redirect(String host, String path) {
        return web.get().uri(path).header("Host", host).exchange();
    }
}
