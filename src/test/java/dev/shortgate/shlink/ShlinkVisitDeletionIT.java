package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * Deleting a short URL's visits on real MariaDB with two pods: raw rows, counts, dimension counts and sketches all
 * go, Shlink's totals follow, and the other pod's sketch of the day, started before the deletion, does not bring
 * the deleted visitors back.
 */
class ShlinkVisitDeletionIT {

    static final String API = "/rest/v3";
    static final String CODE = "it-del";
    static final String WHERE = " WHERE code = '" + CODE + "'";

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .count(2)
            .with("shortgate.base-url", "https://sho.rt")
            .with("shortgate.visit.flush-interval", "50ms")
            .with("shortgate.visit.counts-flush-interval", "100ms")
            .with("shortgate.visit.sketch-flush-interval", "300ms");

    @Test
    void deletingVisitsEmptiesEveryAggregateAndAnotherPodsSketchDoesNotBringThemBack() throws Exception {
        pods.a()
                .web()
                .post()
                .uri(API + "/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("longUrl", "https://example.com/it/delete-visits", "customSlug", CODE))
                .exchange()
                .expectStatus()
                .isOk();
        for (int i = 0; i < 5; i++) {
            visit(pods.a(), "Mozilla/5.0 (X11; Linux x86_64) Firefox/12" + i + ".0");
        }
        for (int i = 0; i < 3; i++) {
            visit(pods.b(), "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/12" + i + ".0 Safari/537.36");
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(count("SELECT COALESCE(SUM(visits), 0) FROM link_stats" + WHERE))
                    .isEqualTo(8);
            assertThat(count("SELECT COUNT(*) FROM visit" + WHERE)).isEqualTo(8);
            assertThat(count("SELECT COUNT(*) FROM visit_sketch" + WHERE)).isEqualTo(2);
            assertThat(count("SELECT COUNT(*) FROM visit_dim_stats" + WHERE)).isPositive();
            assertThat(count("SELECT COUNT(*) FROM visit_dim_month" + WHERE)).isPositive();
        });
        Set<String> writersBefore = writers();

        String deleted = pods.a()
                .web()
                .delete()
                .uri(API + "/short-urls/" + CODE + "/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls_{shortCode}_visits.json", "delete", "200", deleted);
        assertThat(deleted).isEqualTo("{\"deletedVisits\":8}");
        for (String table :
                new String[] {"visit", "link_stats", "visit_dim_stats", "visit_dim_month", "visit_sketch"}) {
            assertThat(count("SELECT COUNT(*) FROM " + table + WHERE)).as(table).isZero();
        }
        assertThat(count("SELECT COUNT(*) FROM visit_reset" + WHERE)).isEqualTo(1);
        pods.b()
                .web()
                .get()
                .uri(API + "/short-urls/" + CODE)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visitsSummary.total")
                .isEqualTo(0);

        // Pod B still holds its sketch of today with the three deleted visitors; a new visit there marks it
        // changed. It must be dropped, not written back.
        visit(pods.b(), "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36");
        await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                        count("SELECT COALESCE(SUM(visits), 0) FROM link_stats" + WHERE))
                .isEqualTo(1));
        // ... and stays dropped through several sketch flushes of both pods.
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(writers())
                .doesNotContainAnyElementsOf(writersBefore));
        visit(pods.b(), "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Safari/605.1.15");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(count("SELECT COALESCE(SUM(visits), 0) FROM link_stats" + WHERE))
                    .isEqualTo(2);
            assertThat(writers()).hasSize(1).doesNotContainAnyElementsOf(writersBefore);
        });
        pods.a()
                .web()
                .get()
                .uri(API + "/short-urls/" + CODE + "/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(2);
    }

    @Test
    void unknownShortCodeOrDomainAnswersShortUrlNotFoundAndDeletesNothing() {
        for (String uri : new String[] {
            API + "/short-urls/no-such-code/visits", API + "/short-urls/" + CODE + "/visits?domain=other.example"
        }) {
            pods.a()
                    .web()
                    .delete()
                    .uri(uri)
                    .exchange()
                    .expectStatus()
                    .isNotFound()
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("https://shlink.io/api/error/short-url-not-found");
        }
    }

    private static void visit(RunningApp pod, String agent) {
        pod.web()
                .get()
                .uri("/" + CODE)
                .header(HttpHeaders.USER_AGENT, agent)
                .exchange()
                .expectStatus()
                .isFound();
    }

    private static long count(String sql) {
        return pods.database().queryForLong(sql);
    }

    private static Set<String> writers() throws SQLException {
        Set<String> writers = new HashSet<>();
        try (Connection connection = pods.database().connection();
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT HEX(writer) FROM visit_sketch" + WHERE)) {
            while (rows.next()) {
                writers.add(rows.getString(1));
            }
        }
        return writers;
    }
}
