package dev.shortgate.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * API keys limited to one short domain (Shlink's {@code DOMAIN_SPECIFIC} role), and {@code ?domain=} wherever a code
 * is named, on MariaDB: such a key lists links and domains and creates only on its domain, is refused with 403
 * {@code domain-not-allowed} for anything of another domain through Shortgate's and Shlink's APIs with no row
 * changed, and the domain query picks the right one of two links with the same code.
 */
class DomainKeysIT {

    private static final String NOT_ALLOWED = "https://shortgate.dev/problems/domain-not-allowed";

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb().withRedis().with("shortgate.base-url", "https://sho.rt");

    @Test
    void aDomainLimitedKeyListsOnlyItsDomainsLinks() {
        addDomain("list.test");
        createAsAdmin(Map.of("url", "https://example.com/list-default", "alias", "listed"));
        createAsAdmin(Map.of("url", "https://example.com/list-domain", "alias", "listed", "domain", "list.test"));
        WebTestClient key = client(newKey("read", "list.test"));

        key.get()
                .uri("/api/v1/links")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.links.length()")
                .isEqualTo(1)
                .jsonPath("$.links[0].domain")
                .isEqualTo("list.test")
                .jsonPath("$.links[0].url")
                .isEqualTo("https://example.com/list-domain");
        key.get()
                .uri("/rest/v3/short-urls")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.shortUrls.data.length()")
                .isEqualTo(1)
                .jsonPath("$.shortUrls.data[0].domain")
                .isEqualTo("list.test");
        key.get()
                .uri("/rest/v3/domains")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains.data.length()")
                .isEqualTo(1)
                .jsonPath("$.domains.data[0].domain")
                .isEqualTo("list.test")
                .jsonPath("$.domains.data[0].isDefault")
                .isEqualTo(false);
        refused(key.get().uri("/api/v1/links?domain=sho.rt").exchange());
        refused(key.get().uri("/rest/v3/short-urls?domain=DEFAULT").exchange());
        // a key of every domain filters the same list by domain
        pods.app()
                .web()
                .get()
                .uri("/rest/v3/short-urls?domain=list.test")
                .exchange()
                .expectBody()
                .jsonPath("$.shortUrls.data.length()")
                .isEqualTo(1)
                .jsonPath("$.shortUrls.data[0].longUrl")
                .isEqualTo("https://example.com/list-domain");
    }

    @Test
    void aDomainLimitedKeyCreatesOnItsDomainWhenTheCreateNamesNone() {
        int id = addDomain("create.test");
        WebTestClient key = client(newKey("create", "create.test"));

        key.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/made-by-domain-key"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody()
                .jsonPath("$.domain")
                .isEqualTo("create.test")
                .jsonPath("$.shortUrl")
                .value(url -> assertThat((String) url).startsWith("https://create.test/"));
        key.post()
                .uri("/rest/v3/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("longUrl", "https://example.com/made-through-shlink"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domain")
                .isEqualTo("create.test");

        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link WHERE code LIKE '" + id + "~%'"))
                .isEqualTo(2);
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM link WHERE long_url LIKE 'https://example.com/made-%'"
                                + " AND code NOT LIKE '%~%'"))
                .isZero();
    }

    @Test
    void aDomainLimitedKeyIsRefusedAnotherDomainsLinkThroughBothApisAndNoRowChanges() {
        addDomain("mine.test");
        addDomain("theirs.test");
        createAsAdmin(Map.of("url", "https://example.com/default-x", "alias", "x"));
        createAsAdmin(Map.of("url", "https://example.com/theirs-x", "alias", "x", "domain", "theirs.test"));
        WebTestClient key = client(newKey("admin", "mine.test"));
        String before = snapshot();

        for (String domain : List.of("sho.rt", "theirs.test")) {
            refused(key.get().uri("/api/v1/links/x?domain=" + domain).exchange());
            refused(key.patch()
                    .uri("/api/v1/links/x?domain=" + domain)
                    .contentType(MediaType.parseMediaType("application/merge-patch+json"))
                    .bodyValue(Map.of("url", "https://example.com/hijacked"))
                    .exchange());
            refused(key.delete().uri("/api/v1/links/x?domain=" + domain).exchange());
            refused(key.get().uri("/api/v1/links/x/stats?domain=" + domain).exchange());
            refused(key.get().uri("/api/v1/links/x/visits?domain=" + domain).exchange());
            refused(key.get().uri("/api/v1/links/x/rules?domain=" + domain).exchange());
            refused(key.put()
                    .uri("/api/v1/links/x/rules?domain=" + domain)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("rules", List.of()))
                    .exchange());
            refused(key.post()
                    .uri("/api/v1/links")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("url", "https://example.com/elsewhere", "domain", domain))
                    .exchange());

            String shlinkDomain = domain.equals("sho.rt") ? "DEFAULT" : domain;
            refused(key.get()
                    .uri("/rest/v3/short-urls/x?domain=" + shlinkDomain)
                    .exchange());
            refused(key.patch()
                    .uri("/rest/v3/short-urls/x?domain=" + shlinkDomain)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("longUrl", "https://example.com/hijacked"))
                    .exchange());
            refused(key.delete()
                    .uri("/rest/v3/short-urls/x?domain=" + shlinkDomain)
                    .exchange());
            refused(key.get()
                    .uri("/rest/v3/short-urls/x/visits?domain=" + shlinkDomain)
                    .exchange());
            refused(key.delete()
                    .uri("/rest/v3/short-urls/x/visits?domain=" + shlinkDomain)
                    .exchange());
            refused(key.get()
                    .uri("/rest/v3/short-urls/x/redirect-rules?domain=" + shlinkDomain)
                    .exchange());
            refused(key.post()
                    .uri("/rest/v3/short-urls/x/redirect-rules?domain=" + shlinkDomain)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("redirectRules", List.of()))
                    .exchange());
            refused(key.get()
                    .uri("/rest/v3/domains/" + shlinkDomain + "/visits")
                    .exchange());
            refused(key.post()
                    .uri("/rest/v3/short-urls")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("longUrl", "https://example.com/elsewhere", "domain", domain))
                    .exchange());
        }
        // the default domain's x, named without a domain: the key's own domain is meant, which has no x
        key.get().uri("/api/v1/links/x").exchange().expectStatus().isNotFound();
        // admin-only endpoints stay admin-only, even for an admin key of one domain
        for (String path : List.of(
                "/api/v1/keys",
                "/api/v1/domains",
                "/api/v1/links/export",
                "/api/v1/visits/export",
                "/api/v1/imports/1")) {
            refused(key.method(HttpMethod.GET).uri(path).exchange());
        }
        // it lists its own domain's orphan visits (OrphanVisitDomainsIT), but deletes no one's
        refused(key.method(HttpMethod.DELETE).uri("/api/v1/visits/orphan").exchange());

        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void theDomainQueryReadsChangesAndDeletesTheRightOneOfTwoLinksWithTheSameCode() throws SQLException {
        addDomain("twin.test");
        createAsAdmin(Map.of("url", "https://example.com/twin-default", "alias", "twin"));
        createAsAdmin(Map.of("url", "https://example.com/twin-domain", "alias", "twin", "domain", "twin.test"));
        WebTestClient admin = pods.app().web();

        admin.get()
                .uri("/api/v1/links/twin?domain=twin.test")
                .exchange()
                .expectBody()
                .jsonPath("$.url")
                .isEqualTo("https://example.com/twin-domain");
        admin.get()
                .uri("/api/v1/links/twin")
                .exchange()
                .expectBody()
                .jsonPath("$.url")
                .isEqualTo("https://example.com/twin-default");
        admin.patch()
                .uri("/api/v1/links/twin?domain=twin.test")
                .contentType(MediaType.parseMediaType("application/merge-patch+json"))
                .bodyValue(Map.of("url", "https://example.com/twin-native-patch"))
                .exchange()
                .expectStatus()
                .isOk();
        admin.get()
                .uri("/rest/v3/short-urls/twin?domain=twin.test")
                .exchange()
                .expectBody()
                .jsonPath("$.longUrl")
                .isEqualTo("https://example.com/twin-native-patch");
        admin.patch()
                .uri("/rest/v3/short-urls/twin?domain=twin.test")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("longUrl", "https://example.com/twin-shlink-patch"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domain")
                .isEqualTo("twin.test");
        admin.get()
                .uri("/rest/v3/short-urls/twin")
                .exchange()
                .expectBody()
                .jsonPath("$.longUrl")
                .isEqualTo("https://example.com/twin-default");
        assertThat(url("twin")).isEqualTo("https://example.com/twin-default");
        assertThat(url(DomainCodesKey.of("twin.test", "twin"))).isEqualTo("https://example.com/twin-shlink-patch");

        // an unknown domain answers a problem and writes nothing
        String before = snapshot();
        admin.get()
                .uri("/rest/v3/short-urls/twin?domain=nowhere.test")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/short-url-not-found")
                .jsonPath("$.domain")
                .isEqualTo("nowhere.test");
        admin.delete()
                .uri("/rest/v3/short-urls/twin?domain=nowhere.test")
                .exchange()
                .expectStatus()
                .isNotFound();
        admin.delete()
                .uri("/api/v1/links/twin?domain=nowhere.test")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/unknown-domain");
        assertThat(snapshot()).isEqualTo(before);

        admin.delete()
                .uri("/rest/v3/short-urls/twin?domain=twin.test")
                .exchange()
                .expectStatus()
                .isNoContent();
        admin.get()
                .uri("/api/v1/links/twin?domain=twin.test")
                .exchange()
                .expectStatus()
                .isNotFound();
        admin.delete().uri("/api/v1/links/twin").exchange().expectStatus().isNoContent();
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM link WHERE code LIKE '%twin' AND deleted_at IS NULL"))
                .isZero();
    }

    /** The stored key of a code on a domain this pod knows. */
    private static final class DomainCodesKey {
        static String of(String host, String code) {
            return DomainCodes.key(pods.app().bean(Domains.class).find(host).orElseThrow(), code);
        }
    }

    private static String url(String key) throws SQLException {
        try (Connection connection = pods.database().connection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT long_url FROM link WHERE code = ? AND deleted_at IS NULL")) {
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    /** Every link row's code, URL, version and deletion, and every key: equal before and after means nothing changed. */
    private static String snapshot() {
        return pods.database().queryForLong("SELECT COUNT(*) FROM link") + "/"
                + pods.database().queryForLong("SELECT COALESCE(SUM(version), 0) FROM link") + "/"
                + pods.database().queryForLong("SELECT COUNT(*) FROM link WHERE deleted_at IS NOT NULL") + "/"
                + pods.database().queryForLong("SELECT COALESCE(SUM(CRC32(CONCAT(code, long_url))), 0) FROM link")
                + "/" + pods.database().queryForLong("SELECT COUNT(*) FROM api_key")
                + "/" + pods.database().queryForLong("SELECT COUNT(*) FROM link_rules");
    }

    private static void refused(WebTestClient.ResponseSpec response) {
        response.expectStatus().isForbidden().expectBody().jsonPath("$.type").isEqualTo(NOT_ALLOWED);
    }

    private static int addDomain(String host) {
        pods.app()
                .web()
                .post()
                .uri("/api/v1/domains")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", host))
                .exchange()
                .expectStatus()
                .isCreated();
        return (int) pods.database().queryForLong("SELECT id FROM domains WHERE host = '" + host + "'");
    }

    private static void createAsAdmin(Map<String, Object> body) {
        pods.app()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isCreated();
    }

    private static String newKey(String scope, String domain) {
        Map<?, ?> created = pods.app()
                .web()
                .post()
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

    private static WebTestClient client(String key) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + pods.app().port())
                .defaultHeader("X-Api-Key", key)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }
}
