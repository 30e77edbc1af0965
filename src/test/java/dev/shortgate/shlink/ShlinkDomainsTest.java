package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Shlink's domains on the embedded H2 database: the default domain is listed with its redirects and the configured
 * defaults; editing them stores them and the traffic port applies them at once (base URL, regular 404, invalid
 * short URL); an added domain's redirects apply on its own host only; a key limited to one domain lists only that
 * domain; a bad edit answers a problem and changes nothing; domain visits know only the default domain.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + ShlinkDomainsTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.visit.flush-interval=50ms",
            "shortgate.visit.counts-flush-interval=100ms",
            "shortgate.not-found-redirects.invalid-short-url=https://fallback.example/missing",
            "spring.r2dbc.url=r2dbc:h2:mem:///shlinkdomains?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class ShlinkDomainsTest {

    static final String KEY = "shlink-domains-key-0123456789";
    static final String API = "/rest/v3";

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
    void editedRedirectsAreStoredListedAndAppliedByTheTrafficPortThenClearedBackToTheDefault() {
        String before = domains();
        ShlinkSchemas.assertValid("v2_domains.json", "get", "200", before);
        assertThat(before)
                .contains("\"domain\":\"sho.rt\",\"isDefault\":true")
                .contains("\"defaultRedirects\":{\"baseUrlRedirect\":null,\"regular404Redirect\":null,"
                        + "\"invalidShortUrlRedirect\":\"https://fallback.example/missing\"}");
        redirectsTo("/no-such-code", "https://fallback.example/missing");
        anonymous.get().uri("/").exchange().expectStatus().isNotFound();

        String saved = patch(Map.of(
                        "domain", "sho.rt",
                        "baseUrlRedirect", "https://home.example/",
                        "regular404Redirect", "https://home.example/404",
                        "invalidShortUrlRedirect", "https://home.example/invalid"))
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_domains_redirects.json", "patch", "200", saved);
        assertThat(saved)
                .isEqualTo("{\"baseUrlRedirect\":\"https://home.example/\",\"regular404Redirect\":"
                        + "\"https://home.example/404\",\"invalidShortUrlRedirect\":\"https://home.example/invalid\"}");
        assertThat(count("SELECT COUNT(*) AS n FROM domain_redirect WHERE domain = ''"))
                .isEqualTo(1);
        assertThat(domains()).contains("\"redirects\":{\"baseUrlRedirect\":\"https://home.example/\"");

        redirectsTo("/no-such-code", "https://home.example/invalid");
        redirectsTo("/", "https://home.example/");
        redirectsTo("/some/other/path", "https://home.example/404");
        anonymous.head().uri("/no-such-code").exchange().expectStatus().isFound();
        web.get()
                .uri(API + "/short-urls/no-such-code")
                .exchange()
                .expectStatus()
                .isNotFound(); // the API keeps 404s
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(count("SELECT COALESCE(SUM(visits), 0) AS n FROM orphan_visit_stats"))
                        .as("redirected not-found requests are still orphan visits")
                        .isGreaterThanOrEqualTo(4));

        Map<String, Object> clear = new HashMap<>();
        clear.put("domain", "DEFAULT");
        clear.put("invalidShortUrlRedirect", null);
        patch(clear)
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.invalidShortUrlRedirect")
                .isEmpty()
                .jsonPath("$.baseUrlRedirect")
                .isEqualTo("https://home.example/");
        redirectsTo("/no-such-code", "https://fallback.example/missing");
    }

    @Test
    void anAddedDomainsRedirectsAreSetListedAndAppliedOnItsOwnHostOnly() {
        web.post()
                .uri("/api/v1/domains")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", "second.example"))
                .exchange()
                .expectStatus()
                .isCreated();
        patch(Map.of(
                        "domain", "Second.Example",
                        "baseUrlRedirect", "https://second-home.example/",
                        "invalidShortUrlRedirect", "https://second-home.example/invalid"))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.baseUrlRedirect")
                .isEqualTo("https://second-home.example/");
        String listed = domains();
        ShlinkSchemas.assertValid("v2_domains.json", "get", "200", listed);
        assertThat(listed)
                .contains("{\"domain\":\"second.example\",\"isDefault\":false,\"redirects\":{\"baseUrlRedirect\":"
                        + "\"https://second-home.example/\",\"regular404Redirect\":null,\"invalidShortUrlRedirect\":"
                        + "\"https://second-home.example/invalid\"}}");

        redirectsTo("second.example", "/", "https://second-home.example/");
        redirectsTo("second.example", "/no-such-code", "https://second-home.example/invalid");
        anonymous
                .get()
                .uri("/a/b")
                .header("Host", "second.example")
                .exchange()
                .expectStatus()
                .isNotFound();
        anonymous
                .get()
                .uri("/no-such-code")
                .header("Host", "sho.rt")
                .exchange()
                .expectHeader()
                .value(HttpHeaders.LOCATION, location -> assertThat(location).doesNotContain("second-home"));
    }

    @Test
    void aKeyLimitedToOneDomainListsOnlyThatDomainWithTheConfiguredDefaults() {
        web.post()
                .uri("/api/v1/domains")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", "limited.example"))
                .exchange()
                .expectStatus()
                .isCreated();
        web.post()
                .uri("/api/v1/domains")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", "unlisted.example"))
                .exchange()
                .expectStatus()
                .isCreated();
        assertThat(domains()).contains("\"domain\":\"limited.example\"", "\"domain\":\"unlisted.example\"");

        String listed = domains(anonymous
                .mutate()
                .defaultHeader("X-Api-Key", newKey("read", "Limited.Example"))
                .build());
        ShlinkSchemas.assertValid("v2_domains.json", "get", "200", listed);
        assertThat(listed)
                .contains("\"data\":[{\"domain\":\"limited.example\",\"isDefault\":false,\"redirects\":{"
                        + "\"baseUrlRedirect\":null,\"regular404Redirect\":null,\"invalidShortUrlRedirect\":null}}]")
                .contains("\"defaultRedirects\":{\"baseUrlRedirect\":null,\"regular404Redirect\":null,"
                        + "\"invalidShortUrlRedirect\":\"https://fallback.example/missing\"}");

        String ofDefault = domains(anonymous
                .mutate()
                .defaultHeader("X-Api-Key", newKey("admin", "sho.rt"))
                .build());
        assertThat(ofDefault)
                .contains("\"domain\":\"sho.rt\",\"isDefault\":true")
                .doesNotContain("limited.example", "unlisted.example");
    }

    @Test
    void aRedirectTheUrlPolicyRefusesIsInvalidData() {
        long rows = storedRows();
        patch(Map.of(
                        "domain",
                        "sho.rt",
                        "baseUrlRedirect",
                        "http://10.0.0.1/",
                        "regular404Redirect",
                        "https://sho.rt/x"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/invalid-data")
                .jsonPath("$.invalidElements[0]")
                .isEqualTo("baseUrlRedirect")
                .jsonPath("$.invalidElements[1]")
                .isEqualTo("regular404Redirect");
        assertThat(storedRows()).isEqualTo(rows);
    }

    @Test
    void badEditsAnswerAProblemAndStoreNothing() {
        long rows = storedRows();
        patch(Map.of("domain", "other.example", "baseUrlRedirect", "https://x.example/"))
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/domain-not-found")
                .jsonPath("$.authority")
                .isEqualTo("other.example");
        patch(Map.of("domain", "sho.rt", "baseUrlRedirect", "not a url", "regular404Redirect", "ftp://x.example/"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/invalid-data")
                .jsonPath("$.invalidElements[0]")
                .isEqualTo("baseUrlRedirect")
                .jsonPath("$.invalidElements[1]")
                .isEqualTo("regular404Redirect");
        patch(Map.of("baseUrlRedirect", "https://x.example/"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.invalidElements[0]")
                .isEqualTo("domain");
        anonymous
                .patch()
                .uri(API + "/domains/redirects")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", "sho.rt"))
                .exchange()
                .expectStatus()
                .isUnauthorized();
        assertThat(storedRows()).isEqualTo(rows);
    }

    @Test
    void domainVisitsKnowOnlyTheDefaultDomain() {
        for (String domain : new String[] {"DEFAULT", "sho.rt"}) {
            String body = web.get()
                    .uri(API + "/domains/" + domain + "/visits")
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectBody(String.class)
                    .returnResult()
                    .getResponseBody();
            ShlinkSchemas.assertValid("v2_domains_{domain}_visits.json", "get", "200", body);
        }
        web.get()
                .uri(API + "/domains/other.example/visits")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/domain-not-found");
    }

    private String newKey(String scope, String domain) {
        return (String) web.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", scope + "@" + domain, "scope", scope, "domain", domain))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("key");
    }

    private String domains() {
        return domains(web);
    }

    private static String domains(WebTestClient client) {
        return client.get()
                .uri(API + "/domains")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    private WebTestClient.ResponseSpec patch(Map<String, Object> body) {
        return web.patch()
                .uri(API + "/domains/redirects")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private void redirectsTo(String host, String path, String target) {
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

    private void redirectsTo(String path, String target) {
        anonymous
                .get()
                .uri(path)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals(HttpHeaders.LOCATION, target);
    }

    private long storedRows() {
        return count("SELECT COUNT(*) AS n FROM domain_redirect");
    }

    private long count(String sql) {
        return db.sql(sql).map(row -> ((Number) row.get("n")).longValue()).one().block(Duration.ofSeconds(10));
    }
}
