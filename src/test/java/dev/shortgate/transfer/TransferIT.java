package dev.shortgate.transfer;

import static dev.shortgate.transfer.TransferTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import dev.shortgate.support.Pods;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Imports and exports on real MariaDB and Redis, two pods: imported links reach the other pod through Redis at once,
 * a re-run changes nothing, and an export reads every page of links in code order.
 */
class TransferIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.transfer.batch-size", "40")
            .with("shortgate.transfer.export-page", "7")
            .count(2);

    @Test
    void importedLinksRedirectOnTheOtherPodAndAReRunChangesNothing() {
        WebTestClient a = pods.a().web();
        WebTestClient b = pods.b().web();
        b.get().uri("/it-import-0").exchange().expectStatus().isNotFound(); // pod b now holds a negative entry
        StringBuilder csv = new StringBuilder("longUrl,tags,domain,shortCode,title\n");
        for (int i = 0; i < 100; i++) {
            csv.append("https://example.com/it/")
                    .append(i)
                    .append(",it|n")
                    .append(i % 3)
                    .append(",,it-import-")
                    .append(i)
                    .append(",Title ")
                    .append(i)
                    .append('\n');
        }
        csv.append("https://127.0.0.1/refused,,,it-refused,\n");
        Map<String, Object> job = importCsv(a, csv.toString());
        assertThat(job.get("status")).isEqualTo("done");
        assertThat(result(job)).containsEntry("created", 100).containsEntry("refused", 1);

        Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> b.get()
                .uri("/it-import-0")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .location("https://example.com/it/0"));
        b.get()
                .uri("/rest/v3/short-urls/it-import-42")
                .exchange()
                .expectBody()
                .jsonPath("$.title")
                .isEqualTo("Title 42")
                .jsonPath("$.tags[1]")
                .isEqualTo("n0");

        // the visits column left out: the visit above may be counted between the two exports
        String before = withoutVisits(export(b, ""));
        Map<String, Object> again = importCsv(b, csv.toString());
        assertThat(result(again)).containsEntry("created", 0).containsEntry("unchanged", 100);
        assertThat(withoutVisits(export(a, ""))).isEqualTo(before);
        assertThat(before.lines().filter(line -> line.startsWith("it-import-")).count())
                .isEqualTo(100);
        assertThat(export(a, "&tag=n1").lines().count()).isEqualTo(1 + 33);
    }

    @Test
    void aSecondDomainsLinksImportExportAndImportAgainOnMariaDb() {
        WebTestClient a = pods.a().web();
        a.post()
                .uri("/api/v1/domains")
                .bodyValue(Map.of("domain", "it-two.test"))
                .exchange();
        StringBuilder csv = new StringBuilder("longUrl,domain,shortCode\n");
        for (int i = 0; i < 10; i++) {
            csv.append("https://example.com/it/two/")
                    .append(i)
                    .append(",it-two.test,it-dom-")
                    .append(i)
                    .append('\n');
            csv.append("https://example.com/it/one/")
                    .append(i)
                    .append(",,it-dom-")
                    .append(i)
                    .append('\n');
        }
        assertThat(result(importCsv(a, csv.toString()))).containsEntry("created", 20);

        String two = export(a, "&domain=it-two.test");
        assertThat(two.lines().skip(1).toList())
                .hasSize(10) // over two pages of 7
                .allSatisfy(
                        line -> assertThat(line).matches("it-dom-\\d,https://example.com/it/two/\\d,,,it-two.test,.*"));
        assertThat(export(a, "&domain=DEFAULT"))
                .contains("it-dom-3,https://example.com/it/one/3,")
                .doesNotContain("it-two");
        assertThat(result(importCsv(a, two))).containsEntry("unchanged", 10).containsEntry("conflicts", 0);
        a.head() // a HEAD records no visit, which would change the other test's exports while it compares them
                .uri("/it-dom-3")
                .header("Host", "it-two.test")
                .exchange()
                .expectHeader()
                .location("https://example.com/it/two/3");
    }

    @Test
    void aDryRunOnMariaDbWritesNothing() {
        Map<String, Object> job =
                importCsv(pods.a().web(), "longUrl,shortCode\nhttps://example.com/it/dry,it-dry\n", "?dryRun=true");
        assertThat(result(job)).containsEntry("created", 1);
        pods.a()
                .web()
                .get()
                .uri("/api/v1/links/it-dry")
                .exchange()
                .expectStatus()
                .isNotFound();
    }

    @Test
    void shlinkVisitsOfAPastMonthShowInThatWholeMonthsStatsOnMariaDbAndAReRunAddsNothing() {
        java.time.YearMonth month =
                java.time.YearMonth.now(java.time.ZoneOffset.UTC).minusMonths(2);
        try (StandIn shlink = new StandIn(
                "/rest/v3",
                request -> StandIn.Answer.ok(StandInSourcesTest.shlinkAnswer(request.pathAndQuery(), month)))) {
            for (int run = 1; run <= 2; run++) {
                Map<String, Object> job = TransferTest.importAndWait(
                        pods.a().web(),
                        "/api/v1/imports",
                        MediaType.APPLICATION_JSON,
                        Map.of("from", "shlink", "url", shlink.url(), "apiKey", "k", "withVisits", true));
                assertThat(job.get("status")).as(String.valueOf(job)).isEqualTo("done");
                // a whole month is read from visit_dim_month, which the import sets from the day rows
                pods.b()
                        .web()
                        .get()
                        .uri(
                                "/api/v1/links/shm-month/stats?from={from}&to={to}&bots=true",
                                month.atDay(1),
                                month.atEndOfMonth())
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .jsonPath("$.topCountries[0].label")
                        .isEqualTo("DE")
                        .jsonPath("$.topCountries[0].visits")
                        .isEqualTo(3)
                        .jsonPath("$.topCountries[1].label")
                        .isEqualTo("FR")
                        .jsonPath("$.topCountries[1].visits")
                        .isEqualTo(1);
            }
        }
    }

    /** The export without its {@code visits} column, the last but one (before {@code rules}, empty or quoted). */
    static String withoutVisits(String csv) {
        return csv.replaceAll("(?m),[0-9]+(,(?:\"(?:[^\"]|\"\")*\")?)$", "$1");
    }

    static String export(WebTestClient web, String query) {
        return web.get()
                .uri("/api/v1/links/export?format=csv" + query)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    static Map<String, Object> importCsv(WebTestClient web, String csv) {
        return importCsv(web, csv, "");
    }

    static Map<String, Object> importCsv(WebTestClient web, String csv, String query) {
        return TransferTest.importAndWait(web, "/api/v1/imports" + query, MediaType.parseMediaType("text/csv"), csv);
    }
}
