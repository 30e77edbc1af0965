package dev.shortgate.link.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import dev.shortgate.domain.Domains;
import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Per-domain settings on MariaDB and Redis: two domains with different not-found redirects are served by one pod,
 * each host landing on its own targets and the default host on the configured default; the other pod applies them
 * within its refresh; Shlink's PATCH for a domain that is not one of ours writes nothing; a create on a domain with
 * a default redirect status gets it.
 */
class DomainSettingsIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.base-url", "https://sho.rt")
            .with("shortgate.domains.refresh-interval", "200ms")
            .with("shortgate.not-found-redirects.refresh", "200ms")
            .with("shortgate.not-found-redirects.invalid-short-url", "https://fallback.example/missing")
            .count(2);

    @BeforeAll
    static void addDomains() {
        for (String domain : new String[] {"a.test", "b.test"}) {
            pods.a()
                    .web()
                    .post()
                    .uri("/api/v1/domains")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("domain", domain))
                    .exchange()
                    .expectStatus()
                    .isCreated();
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> pods.b()
                .web()
                .get()
                .uri("/api/v1/domains")
                .exchange()
                .expectBody()
                .jsonPath("$.domains.length()")
                .isEqualTo(3));
    }

    @Test
    void twoDomainsWithDifferentRedirectsEachSendTheirOwnHostToTheirOwnTargets() {
        put(
                        pods.a(),
                        "a.test",
                        Map.of(
                                "baseUrlRedirect", "https://a-home.example/",
                                "regular404Redirect", "https://a-home.example/404",
                                "invalidShortUrlRedirect", "https://a-home.example/invalid"))
                .expectStatus()
                .isOk();
        // through Shlink's API, on the same pod
        pods.a()
                .web()
                .patch()
                .uri("/rest/v3/domains/redirects")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of(
                        "domain", "b.test",
                        "baseUrlRedirect", "https://b-home.example/",
                        "regular404Redirect", "https://b-home.example/404"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.baseUrlRedirect")
                .isEqualTo("https://b-home.example/")
                .jsonPath("$.invalidShortUrlRedirect")
                .isEmpty();
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM domain_redirect WHERE domain IN ('a.test', 'b.test')"))
                .isEqualTo(2);

        assertLandings(pods.a());
        // the other pod reads them within its refresh
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(500)) // unknown codes count against the client's 404 limit
                .untilAsserted(() -> assertLandings(pods.b()));

        pods.b()
                .web()
                .get()
                .uri("/rest/v3/domains")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains.data[?(@.domain == 'a.test')].redirects.invalidShortUrlRedirect")
                .isEqualTo("https://a-home.example/invalid")
                .jsonPath("$.domains.data[?(@.domain == 'b.test')].redirects.baseUrlRedirect")
                .isEqualTo("https://b-home.example/")
                .jsonPath("$.domains.data[0].domain")
                .isEqualTo("sho.rt")
                .jsonPath("$.domains.data[0].redirects.baseUrlRedirect")
                .isEmpty()
                .jsonPath("$.domains.data[0].redirects.invalidShortUrlRedirect")
                .isEmpty()
                .jsonPath("$.domains.defaultRedirects.invalidShortUrlRedirect")
                .isEqualTo("https://fallback.example/missing");
    }

    @Test
    void shlinksPatchForADomainThatIsNotOursIsDomainNotFoundAndWritesNothing() {
        long rows = pods.database().queryForLong("SELECT COUNT(*) FROM domain_redirect");
        pods.a()
                .web()
                .patch()
                .uri("/rest/v3/domains/redirects")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", "unknown.example", "baseUrlRedirect", "https://x.example/"))
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/domain-not-found")
                .jsonPath("$.authority")
                .isEqualTo("unknown.example");
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM domain_redirect"))
                .isEqualTo(rows);
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM domain_redirect WHERE domain = 'unknown.example'"))
                .isZero();
    }

    @Test
    void aCreateThatNamesNoStatusGetsItsDomainsDefaultRedirectStatus() {
        put(pods.a(), "b.test", Map.of("defaultRedirectStatus", 301))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.defaultRedirectStatus")
                .isEqualTo(301);
        create(pods.a(), Map.of("url", "https://example.com/status-b", "alias", "st", "domain", "b.test"))
                .jsonPath("$.redirectStatus")
                .isEqualTo(301);
        create(pods.a(), Map.of("url", "https://example.com/status-a", "alias", "st", "domain", "a.test"))
                .jsonPath("$.redirectStatus")
                .isEqualTo(302);
        create(pods.a(), Map.of("url", "https://example.com/status-default", "alias", "st"))
                .jsonPath("$.redirectStatus")
                .isEqualTo(302);
        // the other pod, once it has read the setting, creates with it too
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(pods.b()
                        .bean(DomainRedirects.class)
                        .redirectStatus(pods.b()
                                .bean(Domains.class)
                                .find("b.test")
                                .orElseThrow()
                                .id()))
                .isEqualTo(301));
        create(pods.b(), Map.of("url", "https://example.com/status-b-2", "domain", "b.test"))
                .jsonPath("$.redirectStatus")
                .isEqualTo(301);
        redirect(pods.a(), "b.test", "/st").expectStatus().isEqualTo(301);
        redirect(pods.a(), "a.test", "/st").expectStatus().isEqualTo(302);
    }

    private static void assertLandings(RunningApp pod) {
        lands(pod, "a.test", "/", "https://a-home.example/");
        lands(pod, "a.test", "/no-such-code", "https://a-home.example/invalid");
        lands(pod, "a.test", "/some/other/path", "https://a-home.example/404");
        lands(pod, "b.test", "/", "https://b-home.example/");
        lands(pod, "b.test", "/some/other/path", "https://b-home.example/404");
        // b.test has no invalid-short-URL redirect of its own: the configured default, never a.test's
        lands(pod, "b.test", "/no-such-code", "https://fallback.example/missing");
        // the default domain has none of its own
        lands(pod, "sho.rt", "/no-such-code", "https://fallback.example/missing");
        redirect(pod, "sho.rt", "/").expectStatus().isNotFound();
        redirect(pod, "sho.rt", "/some/other/path").expectStatus().isNotFound();
    }

    private static void lands(RunningApp pod, String host, String path, String target) {
        redirect(pod, host, path).expectStatus().isFound().expectHeader().valueEquals(HttpHeaders.LOCATION, target);
    }

    private static WebTestClient.ResponseSpec put(RunningApp pod, String domain, Map<String, Object> body) {
        return pod.web()
                .put()
                .uri("/api/v1/domains/" + domain + "/settings")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private static WebTestClient.BodyContentSpec create(RunningApp pod, Map<String, Object> body) {
        return pod.web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody();
    }

    private static WebTestClient.ResponseSpec redirect(RunningApp pod, String host, String path) {
        return pod.web().get().uri(path).header("Host", host).exchange();
    }
}
