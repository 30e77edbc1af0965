package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Orphan visits and traffic per short domain on MariaDB and Redis, two pods: the migration adds the domain to orphan
 * visits, each pod records the domain the host picked, counts them exactly per domain in the same flush as the
 * totals, and the stats API and Shlink's filter agree with the rows; each pod's scrape counts redirects per domain.
 */
class OrphanVisitDomainsIT {

    static final String CHROME =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .count(2)
            .with("shortgate.base-url", "https://sho.rt")
            .with("shortgate.domains.refresh-interval", "200ms")
            .with("shortgate.visit.counts-flush-interval", "100ms");

    @Test
    void orphanVisitsOnTwoPodsAreRecordedAndCountedPerDomainAndTheStatsAgree() {
        int one = addDomain("one.test");
        awaitKnownOnBothPods("one.test");
        for (RunningApp pod : List.of(pods.a(), pods.b())) {
            visit(pod, "one.test", "/missing-" + pod.port(), 404);
            visit(pod, "one.test", "/", 404);
            visit(pod, "sho.rt", "/missing-" + pod.port(), 404);
            visit(pod, "elsewhere.example", "/a/regular/404", 404); // none of ours: the default domain
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(count("SELECT COUNT(*) FROM orphan_visit")).isEqualTo(8);
            assertThat(count("SELECT COALESCE(SUM(visits), 0) FROM orphan_visit_stats"))
                    .isEqualTo(8);
            assertThat(count("SELECT COALESCE(SUM(visits), 0) FROM orphan_visit_domain_stats"))
                    .isEqualTo(4);
        });
        assertThat(count("SELECT COUNT(*) FROM orphan_visit WHERE domain_id = " + one))
                .isEqualTo(4);
        assertThat(count("SELECT COUNT(*) FROM orphan_visit WHERE domain_id = 0"))
                .isEqualTo(4);
        assertThat(count("SELECT COUNT(DISTINCT domain_id) FROM orphan_visit_domain_stats"))
                .isEqualTo(1);
        assertThat(count("SELECT visits FROM orphan_visit_domain_stats WHERE domain_id = " + one + " AND type = 2"))
                .isEqualTo(2); // base_url
        assertThat(count("SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE()"
                        + " AND index_name = 'orphan_visit_domain_id'"))
                .isEqualTo(2); // (domain_id, id)

        WebTestClient admin = pods.b().web();
        admin.get()
                .uri("/api/v1/visits/domains?domain=one.test")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains[0].orphanVisits.total")
                .isEqualTo(4);
        admin.get()
                .uri("/api/v1/visits/orphan?domain=sho.rt")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.totals.total")
                .isEqualTo(4)
                .jsonPath("$.visits[*].domain")
                .isEqualTo(List.of("sho.rt", "sho.rt", "sho.rt", "sho.rt"));
        String shlink = admin.get()
                .uri("/rest/v3/visits/orphan?domain=one.test&type=base_url")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits_orphan.json", "get", "200", shlink);
        assertThat(shlink).contains("\"totalItems\":2", "\"visitedUrl\":\"https://one.test/\"");
    }

    @Test
    void visitsOfEachDomainsLinksAreBrokenDownByDomainAndEachPodCountsItsRedirectsPerDomain() {
        addDomain("two.test");
        awaitKnownOnBothPods("two.test");
        create(Map.of("url", "https://example.com/two", "alias", "same", "domain", "two.test"));
        create(Map.of("url", "https://example.com/default", "alias", "same"));
        visit(pods.a(), "two.test", "/same", 302);
        visit(pods.b(), "two.test", "/same", 302);
        visit(pods.b(), "two.test", "/same", 302);
        visit(pods.a(), "sho.rt", "/same", 302);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> pods.a()
                .web()
                .get()
                .uri("/api/v1/visits/domains")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains[?(@.domain == 'two.test')].visits.total")
                .isEqualTo(List.of(3))
                .jsonPath("$.domains[?(@.domain == 'sho.rt')].visits.total")
                .isEqualTo(List.of(1)));
        assertThat(scrapeLine(pods.b(), "two.test")).endsWith(" 2.0");
        assertThat(scrapeLine(pods.a(), "two.test")).endsWith(" 1.0");
        assertThat(scrapeLine(pods.a(), "sho.rt")).endsWith(" 1.0");
    }

    private static String scrapeLine(RunningApp pod, String domain) {
        String scrape = pod.management()
                .get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        return scrape.lines()
                .filter(line -> line.startsWith("shortgate_domain_redirects_total{")
                        && line.contains("domain=\"" + domain + "\""))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no series for " + domain + " in\n" + scrape));
    }

    private static void visit(RunningApp pod, String host, String path, int status) {
        WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + pod.port())
                .build()
                .get()
                .uri(path)
                .header(HttpHeaders.HOST, host)
                .header(HttpHeaders.USER_AGENT, CHROME)
                .exchange()
                .expectStatus()
                .isEqualTo(status);
    }

    private static void awaitKnownOnBothPods(String host) {
        for (RunningApp pod : List.of(pods.a(), pods.b())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> pod.bean(dev.shortgate.domain.Domains.class)
                    .find(host)
                    .isPresent());
        }
    }

    private static long count(String sql) {
        return pods.database().queryForLong(sql);
    }

    private static int addDomain(String host) {
        pods.a()
                .web()
                .post()
                .uri("/api/v1/domains")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", host))
                .exchange()
                .expectStatus()
                .isCreated();
        return (int) count("SELECT id FROM domains WHERE host = '" + host + "'");
    }

    private static void create(Map<String, Object> body) {
        pods.a()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isCreated();
    }
}
