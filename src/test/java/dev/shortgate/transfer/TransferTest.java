package dev.shortgate.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** CSV imports through the job API, conflicts, dry runs and exports, on the embedded H2 database. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + TransferTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.transfer.batch-size=3",
            "spring.r2dbc.url=r2dbc:h2:mem:///transfer?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class TransferTest {

    static final String KEY = "transfer-admin-key-0123";

    static final MediaType CSV = MediaType.parseMediaType("text/csv");

    /** Shlink's import columns, as Shlink's importer documents them, with four rows that must be refused. */
    static final String SHLINK_CSV = """
            Long URL,Tags,Domain,Short Code,Title
            https://example.com/one,docs|news,,csv-one,First link
            https://example.com/two,,sho.rt,csv-two,
            http://127.0.0.1/admin,,,csv-private,Refused by the URL policy
            https://example.com/three,news,other.example,csv-other-domain,Another domain
            ,,,csv-no-url,No URL
            https://example.com/four,,,bad code!,Invalid code
            https://example.com/five,,,,Generated code
            """;

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void csvImportKeepsCodesTagsAndTitlesAndReportsBadRowsByLine() {
        Map<String, Object> job = importCsv(SHLINK_CSV, "");
        assertThat(job.get("status")).isEqualTo("done");
        assertThat(result(job)).containsEntry("created", 3).containsEntry("refused", 4);
        assertThat(problems(job))
                .extracting(problem -> problem.get("ref"))
                .containsExactlyInAnyOrder("line 4", "line 5", "line 6", "line 7");

        web.get()
                .uri("/csv-one")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .location("https://example.com/one");
        web.get()
                .uri("/rest/v3/short-urls/csv-one")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags")
                .isEqualTo(List.of("docs", "news"))
                .jsonPath("$.title")
                .isEqualTo("First link");
        for (String refused : List.of("csv-private", "csv-other-domain", "csv-no-url")) {
            web.get().uri("/api/v1/links/" + refused).exchange().expectStatus().isNotFound();
        }
    }

    @Test
    void reRunningAnImportChangesNothing() {
        String csv =
                "longUrl,shortCode,tags\nhttps://example.com/rerun-a,rerun-a,x\nhttps://example.com/rerun-b,rerun-b,\n";
        assertThat(result(importCsv(csv, ""))).containsEntry("created", 2);
        // this test's links only: other tests' visits are counted into the export while it runs
        List<String> before =
                export("csv").lines().filter(line -> line.startsWith("rerun-")).toList();
        assertThat(before).hasSize(2);
        Map<String, Object> again = importCsv(csv, "");
        assertThat(result(again)).containsEntry("created", 0).containsEntry("unchanged", 2);
        assertThat(export("csv").lines().filter(line -> line.startsWith("rerun-")))
                .isEqualTo(before);
    }

    @Test
    void dryRunReportsWithoutWriting() {
        Map<String, Object> job =
                importCsv("longUrl,shortCode\nhttps://example.com/dry,dry-run-code\n", "?dryRun=true");
        assertThat(job.get("dryRun")).isEqualTo(true);
        assertThat(result(job)).containsEntry("created", 1);
        web.get().uri("/api/v1/links/dry-run-code").exchange().expectStatus().isNotFound();
    }

    @Test
    void importedLinksAreCountedByOutcomeAndDryRunsAreNot(@Autowired MeterRegistry registry) {
        double created = importedLinks(registry, "created");
        double unchanged = importedLinks(registry, "unchanged");
        String csv =
                "longUrl,shortCode\nhttps://example.com/metered-a,metered-a\nhttps://example.com/metered-b,metered-b\n";

        assertThat(result(importCsv(csv, ""))).containsEntry("created", 2);
        assertThat(result(importCsv(csv, ""))).containsEntry("unchanged", 2);
        assertThat(result(
                        importCsv("longUrl,shortCode\nhttps://example.com/metered-dry,metered-dry\n", "?dryRun=true")))
                .containsEntry("created", 1);

        assertThat(importedLinks(registry, "created") - created).isEqualTo(2);
        assertThat(importedLinks(registry, "unchanged") - unchanged).isEqualTo(2);
    }

    /** {@code shortgate.imports.links} of one outcome so far; 0 before its first link (it is registered then). */
    private static double importedLinks(MeterRegistry registry, String outcome) {
        Counter counter =
                registry.find("shortgate.imports.links").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aCodeHeldByAnotherUrlIsSkippedOrGivenANewCode() {
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/original", "alias", "taken-code"))
                .exchange()
                .expectStatus()
                .isCreated();
        String csv = "longUrl,shortCode\nhttps://example.com/newcomer,taken-code\n";
        Map<String, Object> skipped = importCsv(csv, "");
        assertThat(result(skipped)).containsEntry("conflicts", 1).containsEntry("created", 0);
        assertThat(problems(skipped).get(0)).containsEntry("ref", "line 2").containsEntry("status", "conflict");

        Map<String, Object> renamed = importCsv(csv, "?onConflict=new-code");
        assertThat(result(renamed)).containsEntry("newCodes", 1);
        web.get().uri("/taken-code").exchange().expectHeader().location("https://example.com/original");
        // a re-run finds the generated link again instead of making a second one
        Map<String, Object> again = importCsv(csv, "?onConflict=new-code");
        assertThat(result(again)).containsEntry("newCodes", 0).containsEntry("unchanged", 1);
    }

    @Test
    void exportStreamsTheImportFormatAndJsonLines() {
        importCsv(
                "longUrl,shortCode,tags,title,createdAt,maxVisits\n"
                        + "https://example.com/exported,exported-one,a|b,\"Quoted, title\",2024-01-02T03:04:05Z,5\n",
                "");
        String csv = export("csv");
        assertThat(csv.lines().findFirst().orElseThrow()).isEqualTo(String.join(",", LinkExport.COLUMNS));
        assertThat(csv)
                .contains("exported-one,https://example.com/exported,a|b,\"Quoted, title\",,2024-01-02T03:04:05Z,,5,"
                        + "false,false,302,false,0");
        assertThat(export("jsonl"))
                .contains(
                        "{\"shortCode\":\"exported-one\",\"domain\":null,\"longUrl\":\"https://example.com/exported\","
                                + "\"tags\":[\"a\",\"b\"],\"title\":\"Quoted, title\"");
        web.get()
                .uri("/api/v1/links/export?format=csv&tag=b")
                .exchange()
                .expectBody(String.class)
                .value(body -> assertThat(body.lines().count()).isEqualTo(2));
    }

    @Test
    void aSecondDomainsLinkExportsWithItsBareCodeAndHostAndImportsBackOntoThatDomain() {
        web.post()
                .uri("/api/v1/domains")
                .bodyValue(Map.of("domain", "two.test"))
                .exchange();
        for (Map<String, String> link : List.of(
                Map.of("url", "https://example.com/on-default", "alias", "both-domains"),
                Map.of("url", "https://example.com/on-two", "alias", "both-domains", "domain", "two.test"))) {
            web.post()
                    .uri("/api/v1/links")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(link)
                    .exchange()
                    .expectStatus()
                    .isCreated();
        }

        String two = export("csv", "&domain=two.test");
        assertThat(two.lines().skip(1).toList())
                .singleElement()
                .asString()
                .startsWith("both-domains,https://example.com/on-two,,,two.test,");
        assertThat(export("csv", "&domain=DEFAULT"))
                .contains("both-domains,https://example.com/on-default,,,,")
                .doesNotContain("two.test");
        assertThat(export("jsonl", "&domain=TWO.test"))
                .contains("{\"shortCode\":\"both-domains\",\"domain\":\"two.test\"")
                .doesNotContain("on-default");
        assertThat(export("csv", "&domain=nowhere.test").lines()).hasSize(1);

        // the export imports back onto its own domain: unchanged, where the default domain's code would conflict
        assertThat(result(importCsv(two, ""))).containsEntry("unchanged", 1).containsEntry("conflicts", 0);
        Map<String, Object> copied = importCsv(two.replace("both-domains,", "copied-in,"), "");
        assertThat(result(copied)).containsEntry("created", 1);
        web.get()
                .uri("/copied-in")
                .header("Host", "two.test")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .location("https://example.com/on-two");
        web.get()
                .uri("/copied-in")
                .header("Host", "sho.rt")
                .exchange()
                .expectStatus()
                .isNotFound();

        // a visit on the second domain is exported with its bare code and the domain's host
        web.get()
                .uri("/both-domains")
                .header("Host", "two.test")
                .exchange()
                .expectStatus()
                .isFound();
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> String.valueOf(web.get()
                                .uri("/api/v1/visits/export")
                                .exchange()
                                .expectBody(String.class)
                                .returnResult()
                                .getResponseBody())
                        .contains("\"shortCode\":\"both-domains\",\"domain\":\"two.test\""));
    }

    @Test
    void importsAndExportsAreForAdminKeysOnly() {
        web.get()
                .uri("/api/v1/links/export")
                .header("X-Api-Key", "wrong-key-000000000000")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    String export(String format) {
        return export(format, "");
    }

    String export(String format, String filters) {
        return web.get()
                .uri("/api/v1/links/export?format=" + format + filters)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    Map<String, Object> importCsv(String csv, String query) {
        return importAndWait(web, "/api/v1/imports" + query, CSV, csv);
    }

    /**
     * Starts an import at {@code uri} ({@code /api/v1/imports} and its query) with this body, a JSON request or a file
     * of {@code type}, and waits until it has ended.
     */
    static Map<String, Object> importAndWait(WebTestClient web, String uri, MediaType type, Object body) {
        String location = web.post()
                .uri(uri)
                .contentType(type)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isAccepted()
                .returnResult(String.class)
                .getResponseHeaders()
                .getLocation()
                .toString();
        return awaitDone(web, location);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> awaitDone(WebTestClient web, String location) {
        Map<String, Object>[] job = new Map[1];
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    job[0] = web.get()
                            .uri(location)
                            .exchange()
                            .expectStatus()
                            .isOk()
                            .expectBody(Map.class)
                            .returnResult()
                            .getResponseBody();
                    return !"running".equals(job[0].get("status"));
                });
        return job[0];
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> result(Map<String, Object> job) {
        return (Map<String, Object>) job.get("result");
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> problems(Map<String, Object> job) {
        return (List<Map<String, Object>>) job.get("problems");
    }
}
