package dev.shortgate.transfer;

import static dev.shortgate.transfer.TransferTest.CSV;
import static dev.shortgate.transfer.TransferTest.problems;
import static dev.shortgate.transfer.TransferTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.RunningApp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * An export of one instance imported into an empty one gives back the links' redirect rules, checked as the native
 * rules API checks them; on H2 (no Redis). The test's context is the source; the target is a second application on
 * a database of its own, started and closed by each test.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + TransferTest.KEY,
            "spring.r2dbc.url=r2dbc:h2:mem:///transfer-rules-source?options=DB_CLOSE_DELAY=-1;MODE=MySQL;"
                    + "DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class TransferRulesTest {

    static final String ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Mobile Safari/537.36";
    static final String IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
            + "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

    WebTestClient source;

    @Autowired
    org.springframework.r2dbc.core.DatabaseClient db;

    WebTestClient target;
    RunningApp targetApp;

    @Autowired
    void client(WebTestClient client) {
        source = client.mutate().defaultHeader("X-Api-Key", TransferTest.KEY).build();
    }

    @BeforeEach
    void startEmptyTarget() {
        // through RunningApp: Netty resources of its own and a bounded close, so a close cannot hang the run
        targetApp = RunningApp.start(Map.of(
                "spring.r2dbc.url",
                "r2dbc:h2:mem:///transfer-rules-target-" + System.nanoTime()
                        + "?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"));
        target = targetApp.web();
    }

    @AfterEach
    void stopTarget() {
        targetApp.close();
    }

    static Map<String, Object> condition(String type, String key, String value) {
        Map<String, Object> condition = new HashMap<>();
        condition.put("type", type);
        condition.put("matchKey", key);
        condition.put("matchValue", value);
        return condition;
    }

    @Test
    void anExportImportedIntoAnEmptyInstanceGivesBackTheSameRulesAndTheRedirectFollowsThem() {
        create(source, "https://example.com/round-trip", "round-trip");
        source.put()
                .uri("/api/v1/links/round-trip/rules")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of(
                        "rules",
                        List.of(
                                Map.of(
                                        "url",
                                        "https://example.com/android",
                                        "conditions",
                                        List.of(condition("device", null, "android"))),
                                Map.of(
                                        "url",
                                        "https://example.com/campaign",
                                        "conditions",
                                        List.of(condition("query-param", "utm_source", "news")))),
                        "variants",
                        List.of(
                                Map.of("url", "https://example.com/a", "weight", 70),
                                Map.of("url", "https://example.com/b", "weight", 30))))
                .exchange()
                .expectStatus()
                .isOk();
        create(source, "https://example.com/no-rules", "no-rules");
        String sourceRules = rules(source, "round-trip");

        // only this test's two links: the source's database is shared with the other tests of this context
        String csv = export(source)
                .lines()
                .filter(line ->
                        line.startsWith("shortCode,") || line.startsWith("round-trip,") || line.startsWith("no-rules,"))
                .collect(java.util.stream.Collectors.joining("\n", "", "\n"));
        assertThat(csv.lines()).hasSize(3);
        assertThat(csv.lines().findFirst().orElseThrow()).endsWith(",visits,rules");
        Map<String, Object> job = importCsv(target, csv);
        assertThat(result(job)).containsEntry("created", 2).containsEntry("refused", 0);

        assertThat(rules(target, "round-trip")).isEqualTo(sourceRules);
        assertThat(location(target, "round-trip", null, ANDROID)).isEqualTo("https://example.com/android");
        assertThat(location(target, "round-trip", "utm_source=news", IPHONE)).isEqualTo("https://example.com/campaign");
        assertThat(location(target, "round-trip", null, IPHONE)).isIn("https://example.com/a", "https://example.com/b");
        assertThat(location(target, "no-rules", null, ANDROID)).isEqualTo("https://example.com/no-rules");
        target.get()
                .uri("/api/v1/links/no-rules/rules")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.rules.length()")
                .isEqualTo(0);

        // a re-run changes nothing, rules included
        Map<String, Object> again = importCsv(target, csv);
        assertThat(result(again)).containsEntry("created", 0).containsEntry("unchanged", 2);
        assertThat(rules(target, "round-trip")).isEqualTo(sourceRules);
    }

    @Test
    void aRecordWhoseRulesTheRulesApiWouldRefuseIsReportedByLineAndNothingOfItIsWritten() {
        String csv = "shortCode,longUrl,rules\n"
                + "fine-rules,https://example.com/fine,\"{\"\"rules\"\":[{\"\"url\"\":\"\"https://example.com/droid\"\","
                + "\"\"conditions\"\":[{\"\"type\"\":\"\"device\"\",\"\"matchValue\"\":\"\"android\"\"}]}]}\"\n"
                + "private-target,https://example.com/p,\"{\"\"rules\"\":[{\"\"url\"\":\"\"http://127.0.0.1/admin\"\","
                + "\"\"conditions\"\":[{\"\"type\"\":\"\"device\"\",\"\"matchValue\"\":\"\"android\"\"}]}]}\"\n"
                + "one-variant,https://example.com/v,\"{\"\"variants\"\":[{\"\"url\"\":\"\"https://example.com/x\"\","
                + "\"\"weight\"\":1}]}\"\n"
                + "bad-device,https://example.com/d,\"{\"\"rules\"\":[{\"\"url\"\":\"\"https://example.com/y\"\","
                + "\"\"conditions\"\":[{\"\"type\"\":\"\"device\"\",\"\"matchValue\"\":\"\"toaster\"\"}]}]}\"\n"
                + "not-json,https://example.com/j,{rules\n";
        Map<String, Object> job = importCsv(target, csv);
        assertThat(result(job)).containsEntry("created", 1).containsEntry("refused", 4);
        assertThat(problems(job))
                .extracting(problem -> problem.get("ref"))
                .containsExactlyInAnyOrder("line 3", "line 4", "line 5", "line 6");
        assertThat(problems(job))
                .filteredOn(problem -> "line 4".equals(problem.get("ref")))
                .singleElement()
                .satisfies(
                        problem -> assertThat(problem.get("reason").toString()).contains("variants"));
        for (String refused : List.of("private-target", "one-variant", "bad-device", "not-json")) {
            target.get()
                    .uri("/api/v1/links/" + refused)
                    .exchange()
                    .expectStatus()
                    .isNotFound();
        }
        assertThat(location(target, "fine-rules", null, ANDROID)).isEqualTo("https://example.com/droid");
    }

    @Test
    void aLinkGivenAGeneratedCodeForAConflictKeepsItsRules() {
        create(target, "https://example.com/first-holder", "held-code");
        String csv = "shortCode,longUrl,rules\n"
                + "held-code,https://example.com/newcomer,\"{\"\"rules\"\":[{\"\"url\"\":\"\"https://example.com/droid\"\","
                + "\"\"conditions\"\":[{\"\"type\"\":\"\"device\"\",\"\"matchValue\"\":\"\"android\"\"}]}]}\"\n";
        Map<String, Object> job = TransferTest.importAndWait(target, "/api/v1/imports?onConflict=new-code", CSV, csv);
        assertThat(result(job)).containsEntry("newCodes", 1);
        String reason = problems(job).get(0).get("reason").toString();
        String code = reason.substring(reason.indexOf("New code: ") + "New code: ".length())
                .trim();

        assertThat(location(target, code, null, ANDROID)).isEqualTo("https://example.com/droid");
        assertThat(location(target, code, null, IPHONE)).isEqualTo("https://example.com/newcomer");
        assertThat(location(target, "held-code", null, ANDROID)).isEqualTo("https://example.com/first-holder");
        target.get()
                .uri("/api/v1/links/" + code + "/rules")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.rules[0].url")
                .isEqualTo("https://example.com/droid");
    }

    /**
     * A batch whose rules insert fails (a check constraint stands in for a database lost between the statements)
     * fails the job; nothing of its links may stay without their rules, so the import run again once the database is
     * back creates them with their rules, under their own codes and under a generated one.
     */
    @Test
    void aLinkWhoseRulesFailedToBeWrittenIsNotLeftWithoutThemAndTheRerunStoresBoth() {
        create(source, "https://example.com/tx-holder", "tx-held");
        String rules =
                "\"{\"\"rules\"\":[{\"\"url\"\":\"\"https://example.com/fail-me\"\",\"\"conditions\"\":[{\"\"type\"\":"
                        + "\"\"device\"\",\"\"matchValue\"\":\"\"android\"\"}]}]}\"";
        String aliased = "shortCode,longUrl,rules\ntx-alias,https://example.com/tx-alias," + rules + "\n";
        String renamed = "shortCode,longUrl,rules\ntx-held,https://example.com/tx-renamed," + rules + "\n";
        db.sql("ALTER TABLE link_rules ADD CONSTRAINT tx_rules_fail CHECK (rules_json NOT LIKE '%fail-me%')")
                .then()
                .block();
        try {
            assertThat(importCsv(source, aliased).get("status")).isEqualTo("failed");
            assertThat(importJob(source, renamed, "?onConflict=new-code").get("status"))
                    .isEqualTo("failed");
        } finally {
            db.sql("ALTER TABLE link_rules DROP CONSTRAINT tx_rules_fail")
                    .then()
                    .block();
        }

        assertThat(result(importCsv(source, aliased))).containsEntry("created", 1);
        assertThat(location(source, "tx-alias", null, ANDROID)).isEqualTo("https://example.com/fail-me");
        Map<String, Object> again = importJob(source, renamed, "?onConflict=new-code");
        assertThat(result(again)).containsEntry("newCodes", 1);
        String reason = problems(again).get(0).get("reason").toString();
        String code = reason.substring(reason.indexOf("New code: ") + "New code: ".length())
                .trim();
        assertThat(location(source, code, null, ANDROID)).isEqualTo("https://example.com/fail-me");
        assertThat(location(source, code, null, IPHONE)).isEqualTo("https://example.com/tx-renamed");
        assertThat(export(source).lines().filter(line -> line.contains("https://example.com/tx-renamed")))
                .hasSize(1);
    }

    static Map<String, Object> importJob(WebTestClient web, String csv, String query) {
        return TransferTest.importAndWait(web, "/api/v1/imports" + query, CSV, csv);
    }

    static void create(WebTestClient web, String url, String alias) {
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url, "alias", alias))
                .exchange()
                .expectStatus()
                .isCreated();
    }

    static String rules(WebTestClient web, String code) {
        return web.get()
                .uri("/api/v1/links/" + code + "/rules")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    static String export(WebTestClient web) {
        return web.get()
                .uri("/api/v1/links/export?format=csv")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    static Map<String, Object> importCsv(WebTestClient web, String csv) {
        return TransferTest.importAndWait(web, "/api/v1/imports", CSV, csv);
    }

    static String location(WebTestClient web, String code, String query, String agent) {
        return web.get()
                .uri("/" + code + (query == null ? "" : "?" + query))
                .header(HttpHeaders.USER_AGENT, agent)
                .exchange()
                .expectStatus()
                .is3xxRedirection()
                .returnResult(Void.class)
                .getResponseHeaders()
                .getFirst(HttpHeaders.LOCATION);
    }
}
