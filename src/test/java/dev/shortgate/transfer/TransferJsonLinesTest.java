package dev.shortgate.transfer;

import static dev.shortgate.transfer.TransferRulesTest.ANDROID;
import static dev.shortgate.transfer.TransferRulesTest.IPHONE;
import static dev.shortgate.transfer.TransferRulesTest.location;
import static dev.shortgate.transfer.TransferTest.problems;
import static dev.shortgate.transfer.TransferTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.shortgate.support.RunningApp;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Shortgate's JSON lines export imported back: into an empty instance it gives identical links (codes, URLs, tags,
 * titles, rules, lifecycle fields and visit totals), checked as a CSV import is. On H2 (no Redis); the test's context
 * is the source (the same settings as {@link TransferRulesTest}, so the two share it), the round trip's target a
 * second application on a database of its own.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + TransferTest.KEY,
            "spring.r2dbc.url=r2dbc:h2:mem:///transfer-rules-source?options=DB_CLOSE_DELAY=-1;MODE=MySQL;"
                    + "DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class TransferJsonLinesTest {

    static final MediaType JSON_LINES = MediaType.parseMediaType("application/jsonl");

    /** Links with every field the export carries, put into the source by Shortgate's own CSV format. */
    static final String SOURCE_CSV = "shortCode,longUrl,tags,title,domain,createdAt,validUntil,maxVisits,crawlable,"
            + "forwardQuery,redirectStatus,disabled,visits,rules\n"
            + "jl-full,https://example.com/full?x=1,news|docs,\"A \"\"quoted\"\", title\",,2024-01-02T03:04:05.678Z,"
            + "2099-12-31T23:59:59Z,500,true,true,301,false,42,\"{\"\"rules\"\":[{\"\"url\"\":"
            + "\"\"https://example.com/droid\"\",\"\"conditions\"\":[{\"\"type\"\":\"\"device\"\",\"\"matchValue\"\":"
            + "\"\"android\"\"}]}],\"\"variants\"\":[{\"\"url\"\":\"\"https://example.com/a\"\",\"\"weight\"\":70},"
            + "{\"\"url\"\":\"\"https://example.com/b\"\",\"\"weight\"\":30}]}\"\n"
            + "jl-plain,https://example.com/plain,,,,2023-05-06T07:08:09Z,,,false,false,302,false,0,\n"
            + "jl-off,https://example.com/off,Ünïcode tag,Titre é,,2022-01-01T00:00:00Z,2023-01-01T00:00:00Z,,false,"
            + "false,307,true,3,\n";

    WebTestClient source;

    @Autowired
    void client(WebTestClient client) {
        source = client.mutate().defaultHeader("X-Api-Key", TransferTest.KEY).build();
    }

    @Test
    void aJsonLinesExportImportedIntoAnEmptyInstanceGivesIdenticalLinks() {
        assertThat(result(importBody(source, "text/csv", SOURCE_CSV, ""))).containsEntry("refused", 0);
        String exported = ours(export(source));
        assertThat(exported.lines()).hasSize(3);
        assertThat(exported)
                .contains("\"shortCode\":\"jl-full\"", "\"visits\":42", "\"maxVisits\":500", "\"redirectStatus\":301")
                .contains("\"rules\":{\"rules\":[{");

        // through RunningApp: Netty resources of its own and a bounded close, so a close cannot hang the run
        try (RunningApp targetApp = RunningApp.start(Map.of(
                "spring.r2dbc.url",
                "r2dbc:h2:mem:///transfer-jsonl-target-" + System.nanoTime()
                        + "?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"))) {
            WebTestClient target = targetApp.web();

            Map<String, Object> dry = importBody(target, "application/jsonl", exported, "?dryRun=true");
            assertThat(result(dry)).containsEntry("created", 3);
            assertThat(export(target)).isEmpty();

            Map<String, Object> job = importBody(target, "application/jsonl", exported, "");
            assertThat(result(job))
                    .containsEntry("created", 3)
                    .containsEntry("refused", 0)
                    .containsEntry("seededClickTotals", 2);
            assertThat(export(target)).isEqualTo(exported);
            assertThat(csv(target)).isEqualTo(csv(source));
            assertThat(TransferRulesTest.rules(target, "jl-full"))
                    .isEqualTo(TransferRulesTest.rules(source, "jl-full"));
            assertThat(location(target, "jl-full", null, ANDROID)).isEqualTo("https://example.com/droid");
            assertThat(location(target, "jl-full", null, IPHONE))
                    .isIn("https://example.com/a", "https://example.com/b");

            // a re-run changes nothing
            Map<String, Object> again = importBody(target, "application/jsonl", exported, "");
            assertThat(result(again)).containsEntry("created", 0).containsEntry("unchanged", 3);
            assertThat(export(target)).isEqualTo(exported);
        }
    }

    @Test
    void badLinesAreReportedByLineAndNothingOfThemIsWritten() {
        String body = """
                {"shortCode":"jl-fine","longUrl":"https://example.com/fine","tags":["t"],"title":"Fine"}

                {"shortCode":"jl-private","longUrl":"http://127.0.0.1/admin"}
                {"shortCode":"jl-bad-rules","longUrl":"https://example.com/r","rules":{"rules":[{"url":"https://example.com/y","conditions":[{"type":"device","matchValue":"toaster"}]}]}}
                {"shortCode":"jl-bad-date","longUrl":"https://example.com/d","createdAt":"yesterday"}
                {"shortCode":"jl-bad-number","longUrl":"https://example.com/n","maxVisits":"many"}
                not json at all
                ["an","array"]
                {"shortCode":"jl-no-url","title":"No URL"}
                """;
        Map<String, Object> job = importBody(source, "application/jsonl", body, "");
        assertThat(job.get("status")).isEqualTo("done");
        assertThat(result(job)).containsEntry("created", 1).containsEntry("refused", 7);
        assertThat(problems(job))
                .extracting(problem -> problem.get("ref"))
                .containsExactlyInAnyOrder("line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 9");
        assertThat(problems(job))
                .filteredOn(problem -> "line 4".equals(problem.get("ref")))
                .singleElement()
                .satisfies(
                        problem -> assertThat(problem.get("reason").toString()).startsWith("Invalid rules"));
        for (String refused : List.of("jl-private", "jl-bad-rules", "jl-bad-date", "jl-bad-number", "jl-no-url")) {
            source.get()
                    .uri("/api/v1/links/" + refused)
                    .exchange()
                    .expectStatus()
                    .isNotFound();
        }
        source.get().uri("/api/v1/links/jl-fine").exchange().expectStatus().isOk();
    }

    @Test
    void aCodeHeldByAnotherUrlIsSkippedOrGivenANewCode() {
        TransferRulesTest.create(source, "https://example.com/jl-holder", "jl-held");
        String body = "{\"shortCode\":\"jl-held\",\"longUrl\":\"https://example.com/jl-newcomer\"}\n";
        Map<String, Object> skipped = importBody(source, "application/jsonl", body, "");
        assertThat(result(skipped)).containsEntry("conflicts", 1).containsEntry("created", 0);
        assertThat(problems(skipped).get(0)).containsEntry("ref", "line 1").containsEntry("status", "conflict");

        Map<String, Object> renamed = importBody(source, "application/x-ndjson", body, "?onConflict=new-code");
        assertThat(result(renamed)).containsEntry("newCodes", 1);
        assertThat(location(source, "jl-held", null, IPHONE)).isEqualTo("https://example.com/jl-holder");
        Map<String, Object> again = importBody(source, "application/jsonl", body, "?onConflict=new-code");
        assertThat(result(again)).containsEntry("newCodes", 0).containsEntry("unchanged", 1);
    }

    /** This class's round-trip links only: the source's database is shared with other tests. */
    static String ours(String jsonLines) {
        return jsonLines
                .lines()
                .filter(line -> line.startsWith("{\"shortCode\":\"jl-full\"")
                        || line.startsWith("{\"shortCode\":\"jl-plain\"")
                        || line.startsWith("{\"shortCode\":\"jl-off\""))
                .collect(Collectors.joining("\n", "", "\n"));
    }

    static String export(WebTestClient web) {
        String body = body(web, "jsonl");
        return body == null || body.isBlank() ? "" : ours(body);
    }

    static String csv(WebTestClient web) {
        return body(web, "csv")
                .lines()
                .filter(line ->
                        line.startsWith("jl-full,") || line.startsWith("jl-plain,") || line.startsWith("jl-off,"))
                .collect(Collectors.joining("\n"));
    }

    static String body(WebTestClient web, String format) {
        return web.get()
                .uri("/api/v1/links/export?format=" + format)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    static Map<String, Object> importBody(WebTestClient web, String type, String body, String query) {
        return TransferTest.importAndWait(web, "/api/v1/imports" + query, MediaType.parseMediaType(type), body);
    }
}
