package dev.shortgate.link.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.test.StepVerifier;

/**
 * A domain's settings through the native API on the embedded H2 database: read and replaced by admins, applied on
 * that domain's host only (also when a trusted proxy names the host), checked before anything is written, and
 * removed with the domain.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + DomainSettingsTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.visit.trusted-proxies=127.0.0.0/8,::1/128",
            "shortgate.not-found-redirects.base-url=https://fallback.example/home",
            "spring.r2dbc.url=r2dbc:h2:mem:///domainsettings?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class DomainSettingsTest {

    static final String KEY = "domain-settings-admin-key-0123";
    static final String PROBLEM = "https://shortgate.dev/problems/";

    WebTestClient anonymous;
    WebTestClient web;

    @Autowired
    DatabaseClient db;

    @Autowired
    void client(WebTestClient client) {
        anonymous = client;
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void settingsAreReadAndReplacedAndAppliedOnTheirOwnHostOnly() {
        addDomain("read.test");
        addDomain("other.test");
        web.get()
                .uri("/api/v1/domains/read.test/settings")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .json("{\"domain\":\"read.test\",\"baseUrlRedirect\":null,\"regular404Redirect\":null,"
                        + "\"invalidShortUrlRedirect\":null,\"defaultRedirectStatus\":302}");
        put("READ.test", Map.of("baseUrlRedirect", "HTTPS://Read-Home.Example", "defaultRedirectStatus", 308))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domain")
                .isEqualTo("read.test")
                .jsonPath("$.baseUrlRedirect")
                .isEqualTo("https://read-home.example/") // normalised by the URL policy, as a link's URL
                .jsonPath("$.defaultRedirectStatus")
                .isEqualTo(308);

        lands("read.test", "/", "https://read-home.example/");
        // the other domain, the default one and a host that is none of ours keep the configured default
        lands("other.test", "/", "https://fallback.example/home");
        lands("sho.rt", "/", "https://fallback.example/home");
        lands("elsewhere.example", "/", "https://fallback.example/home");
        // a trusted proxy's X-Forwarded-Host picks the domain
        anonymous
                .get()
                .uri("/")
                .header("Host", "sho.rt")
                .header("X-Forwarded-Host", "read.test")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals(HttpHeaders.LOCATION, "https://read-home.example/");

        // PUT replaces: what is left out is none
        put("read.test", Map.of("regular404Redirect", "https://read-home.example/404"))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.baseUrlRedirect")
                .isEmpty()
                .jsonPath("$.defaultRedirectStatus")
                .isEqualTo(302);
        lands("read.test", "/", "https://fallback.example/home");
        lands("read.test", "/a/b", "https://read-home.example/404");
        anonymous
                .get()
                .uri("/a/b")
                .header("Host", "other.test")
                .exchange()
                .expectStatus()
                .isNotFound();
    }

    @Test
    void badSettingsAnswerAProblemAndWriteNothing() {
        addDomain("bad.test");
        long rows = rows();
        put("bad.test", Map.of("defaultRedirectStatus", 303))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "invalid-request")
                .jsonPath("$.field")
                .isEqualTo("defaultRedirectStatus");
        put("bad.test", Map.of("baseUrlRedirect", "ftp://files.example/"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("baseUrlRedirect");
        put("bad.test", Map.of("invalidShortUrlRedirect", "http://127.0.0.1/admin"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "url-host-not-allowed")
                .jsonPath("$.field")
                .isEqualTo("invalidShortUrlRedirect");
        put("bad.test", Map.of("regular404Redirect", "https://sho.rt/loop"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "url-self-link");
        put("no-such.test", Map.of("baseUrlRedirect", "https://x.example/"))
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "domain-not-found");
        web.get()
                .uri("/api/v1/domains/no-such.test/settings")
                .exchange()
                .expectStatus()
                .isNotFound();
        anonymous
                .put()
                .uri("/api/v1/domains/bad.test/settings")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("baseUrlRedirect", "https://x.example/"))
                .exchange()
                .expectStatus()
                .isUnauthorized();
        anonymous
                .get()
                .uri("/api/v1/domains/bad.test/settings")
                .exchange()
                .expectStatus()
                .isUnauthorized();
        assertThat(rows()).isEqualTo(rows);
    }

    @Test
    void aKeyThatIsNoAdminKeyMayNeitherReadNorChangeSettings() {
        addDomain("keys.test");
        Map<?, ?> created = web.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "settings-creator", "scope", "create"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        WebTestClient creator = anonymous
                .mutate()
                .defaultHeader("X-Api-Key", created.get("key").toString())
                .build();
        long rows = rows();
        creator.get()
                .uri("/api/v1/domains/keys.test/settings")
                .exchange()
                .expectStatus()
                .isForbidden();
        creator.put()
                .uri("/api/v1/domains/keys.test/settings")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("defaultRedirectStatus", 301))
                .exchange()
                .expectStatus()
                .isForbidden();
        assertThat(rows()).isEqualTo(rows);
    }

    @Test
    void theDefaultDomainsSettingsAreTheOnesShlinksApiShows() {
        put("sho.rt", Map.of("invalidShortUrlRedirect", "https://home.example/invalid"))
                .expectStatus()
                .isOk();
        assertThat(count("SELECT COUNT(*) AS n FROM domain_redirect WHERE domain = ''"))
                .isEqualTo(1);
        web.get()
                .uri("/rest/v3/domains")
                .exchange()
                .expectBody()
                .jsonPath("$.domains.data[0].redirects.invalidShortUrlRedirect")
                .isEqualTo("https://home.example/invalid");
        lands("sho.rt", "/no-such-code", "https://home.example/invalid");
        Map<String, Object> clear = new HashMap<>();
        clear.put("invalidShortUrlRedirect", null);
        put("sho.rt", clear).expectStatus().isOk();
        anonymous
                .get()
                .uri("/no-such-code")
                .header("Host", "sho.rt")
                .exchange()
                .expectStatus()
                .isNotFound();
    }

    @Test
    void removingADomainRemovesItsSettings() {
        addDomain("gone.test");
        put("gone.test", Map.of("baseUrlRedirect", "https://gone-home.example/"))
                .expectStatus()
                .isOk();
        assertThat(count("SELECT COUNT(*) AS n FROM domain_redirect WHERE domain = 'gone.test'"))
                .isEqualTo(1);
        web.delete().uri("/api/v1/domains/gone.test").exchange().expectStatus().isNoContent();
        assertThat(count("SELECT COUNT(*) AS n FROM domain_redirect WHERE domain = 'gone.test'"))
                .isZero();
        addDomain("gone.test");
        web.get()
                .uri("/api/v1/domains/gone.test/settings")
                .exchange()
                .expectBody()
                .jsonPath("$.baseUrlRedirect")
                .isEmpty();
    }

    private void addDomain(String domain) {
        web.post()
                .uri("/api/v1/domains")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", domain))
                .exchange()
                .expectStatus()
                .isCreated();
    }

    private WebTestClient.ResponseSpec put(String domain, Map<String, Object> body) {
        return web.put()
                .uri("/api/v1/domains/" + domain + "/settings")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private void lands(String host, String path, String target) {
        anonymous
                .get()
                .uri(path)
                .header("Host", host)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals(HttpHeaders.LOCATION, target);
    }

    private long rows() {
        return count("SELECT COUNT(*) AS n FROM domain_redirect");
    }

    private long count(String sql) {
        AtomicLong n = new AtomicLong();
        StepVerifier.create(db.sql(sql)
                        .map(row -> ((Number) row.get("n")).longValue())
                        .one())
                .consumeNextWith(n::set)
                .expectComplete()
                .verify(Duration.ofSeconds(10));
        return n.get();
    }
}
