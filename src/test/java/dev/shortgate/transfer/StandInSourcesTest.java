package dev.shortgate.transfer;

import static dev.shortgate.transfer.TransferTest.problems;
import static dev.shortgate.transfer.TransferTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * YOURLS, Kutt and Bitly cannot run here, so each is a stand-in ({@link StandIn}, a real HTTP server) that serves
 * the JSON, paging and errors of the product's own API documentation, cited at each payload. The importer sees real
 * HTTP, real paging and real 429s; what it cannot prove is that the products answer as their docs say.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + TransferTest.KEY,
            "shortgate.transfer.api-key=token-from-settings",
            "shortgate.transfer.page-size=2",
            "shortgate.transfer.batch-size=3",
            "shortgate.transfer.max-retry-after=2s",
            "spring.r2dbc.url=r2dbc:h2:mem:///standins?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class StandInSourcesTest {

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", TransferTest.KEY).build();
    }

    /**
     * YOURLS's {@code action=stats&filter=last&limit=N&start=S&format=json}, as https://yourls.org/docs/guide/advanced/api
     * documents it ({@code links} keyed {@code link_1…}, numbers as strings, {@code stats.total_links}); {@code start}
     * is the offset YOURLS's {@code yourls_api_stats($filter, $limit, $start)} takes. Newest first.
     */
    static String yourlsPage(int start, int limit) {
        String[][] links = {
            {"yl-new", "https://example.com/yourls/new", "Newest", "2024-03-01 10:00:00", "7"},
            {"yl-mid", "https://example.com/yourls/mid", "Middle", "2024-02-01 10:00:00", "0"},
            {"yl-local", "http://localhost/private", "Refused", "2024-01-15 10:00:00", "1"},
            {"yl-old", "https://example.com/yourls/old", "Oldest", "2024-01-01 10:00:00", "3"}
        };
        List<String> items = new ArrayList<>();
        for (int i = start; i < Math.min(links.length, start + limit); i++) {
            String[] l = links[i];
            items.add("\"link_" + (i - start + 1) + "\":{\"shorturl\":\"https://sho.rt/" + l[0] + "\",\"url\":\"" + l[1]
                    + "\",\"title\":\"" + l[2] + "\",\"timestamp\":\"" + l[3] + "\",\"ip\":\"127.0.0.1\",\"clicks\":\""
                    + l[4] + "\"}");
        }
        return "{\"links\":{" + String.join(",", items) + "},\"stats\":{\"total_links\":\"4\",\"total_clicks\":\"11\"},"
                + "\"statusCode\":200,\"message\":\"success\"}";
    }

    @Test
    void yourlsKeywordsTitlesAndDatesArriveAndClickTotalsSeedTheAggregate() {
        try (StandIn yourls = new StandIn(
                "/yourls-api.php",
                request -> StandIn.Answer.ok(yourlsPage(
                        Integer.parseInt(StandIn.parameter(request, "start")),
                        Integer.parseInt(StandIn.parameter(request, "limit")))))) {
            Map<String, Object> job = importFrom(Map.of("from", "yourls", "url", yourls.url()));
            assertThat(job.get("status")).isEqualTo("done");
            assertThat(result(job))
                    .containsEntry("created", 3)
                    .containsEntry("refused", 1)
                    .containsEntry("seededClickTotals", 2)
                    .containsKey("note");
            assertThat(problems(job).get(0)).containsEntry("ref", "keyword yl-local");
            assertThat(yourls.seen).allSatisfy(request -> assertThat(StandIn.parameter(request, "signature"))
                    .isEqualTo("token-from-settings"));
            web.get()
                    .uri("/rest/v3/short-urls/yl-new")
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectBody()
                    .jsonPath("$.longUrl")
                    .isEqualTo("https://example.com/yourls/new")
                    .jsonPath("$.title")
                    .isEqualTo("Newest")
                    .jsonPath("$.dateCreated")
                    .isEqualTo("2024-03-01T10:00:00+00:00")
                    .jsonPath("$.visitsSummary.total")
                    .isEqualTo(7);
        }
    }

    /**
     * Shlink's {@code GET /rest/v3/short-urls} and {@code GET /rest/v3/short-urls/{shortCode}/visits}, as Shlink's
     * swagger.json (v4) documents them: {@code shortUrls} or {@code visits} with {@code data} and {@code pagination},
     * each visit with {@code date}, {@code userAgent}, {@code potentialBot} and a {@code visitLocation} with
     * {@code countryCode}. One link with four visits in the whole month {@code month}: DE, DE, FR and one bot (DE).
     */
    static String shlinkAnswer(String pathAndQuery, java.time.YearMonth month) {
        if (pathAndQuery.startsWith("/rest/v3/short-urls/shm-month/visits")) {
            String[][] visits = {
                {"03", "DE", "false"}, {"03", "DE", "true"}, {"09", "FR", "false"}, {"27", "DE", "false"}
            };
            List<String> items = new ArrayList<>();
            for (String[] v : visits) {
                items.add("{\"referer\":\"\",\"date\":\"" + month + "-" + v[0] + "T10:00:00+00:00\",\"userAgent\":"
                        + "\"Mozilla/5.0 Firefox/128.0\",\"potentialBot\":" + v[2]
                        + ",\"visitLocation\":{\"countryCode\":\""
                        + v[1] + "\",\"countryName\":\"\",\"cityName\":\"\"}}");
            }
            return "{\"visits\":{\"data\":[" + String.join(",", items) + "],\"pagination\":{\"currentPage\":1,"
                    + "\"pagesCount\":1,\"itemsPerPage\":100,\"itemsInCurrentPage\":4,\"totalItems\":4}}}";
        }
        return "{\"shortUrls\":{\"data\":[{\"shortCode\":\"shm-month\",\"shortUrl\":\"https://s.test/shm-month\","
                + "\"longUrl\":\"https://example.com/shlink/month\",\"dateCreated\":\"" + month.minusMonths(1)
                + "-01T10:00:00+00:00\",\"tags\":[],\"meta\":{\"validSince\":null,\"validUntil\":null,\"maxVisits\":null},"
                + "\"domain\":null,\"title\":null,\"crawlable\":false,\"forwardQuery\":true}],\"pagination\":"
                + "{\"currentPage\":1,\"pagesCount\":1,\"itemsPerPage\":2,\"itemsInCurrentPage\":1,\"totalItems\":1}}}";
    }

    @Test
    void shlinkVisitsOfAPastMonthCountByCountryInWholeMonthStatsAndAReRunAddsNothing() {
        java.time.YearMonth month =
                java.time.YearMonth.now(java.time.ZoneOffset.UTC).minusMonths(2);
        try (StandIn shlink =
                new StandIn("/rest/v3", request -> StandIn.Answer.ok(shlinkAnswer(request.pathAndQuery(), month)))) {
            for (int run = 1; run <= 2; run++) {
                Map<String, Object> job =
                        importFrom(Map.of("from", "shlink", "url", shlink.url(), "apiKey", "k", "withVisits", true));
                assertThat(job.get("status")).as(String.valueOf(job)).isEqualTo("done");
                // the whole month is read from the monthly roll-up, a part of it from the days: both show the countries
                for (String to :
                        List.of(month.atEndOfMonth().toString(), month.atDay(10).toString())) {
                    WebTestClient.BodyContentSpec body = web.get()
                            .uri("/api/v1/links/shm-month/stats?from={from}&to={to}&bots=true", month.atDay(1), to)
                            .exchange()
                            .expectStatus()
                            .isOk()
                            .expectBody();
                    body.jsonPath("$.topCountries[0].label").isEqualTo("DE");
                    body.jsonPath("$.topCountries[0].visits").isEqualTo(to.endsWith("-10") ? 2 : 3);
                    body.jsonPath("$.topCountries[1].label").isEqualTo("FR");
                    body.jsonPath("$.topCountries[1].visits").isEqualTo(1);
                }
            }
        }
    }

    /**
     * Kutt's {@code GET /api/v2/links?limit=N&skip=S} with {@code X-API-KEY}, as https://docs.kutt.it (API v2, "Get
     * links") documents it: {@code {limit, skip, total, data: [link]}}, each link with {@code id}, {@code address},
     * {@code target}, {@code description}, {@code expire_in}, {@code visit_count}, {@code created_at}.
     */
    static String kuttPage(int skip, int limit) {
        List<String> items = new ArrayList<>();
        for (int i = skip; i < Math.min(5, skip + limit); i++) {
            items.add("{\"id\":\"00000000-0000-0000-0000-00000000000" + i + "\",\"address\":\"kutt-" + i
                    + "\",\"banned\":false,\"password\":false,\"description\":\"Kutt link " + i + "\","
                    + "\"expire_in\":" + (i == 0 ? "\"2030-01-01T00:00:00.000Z\"" : "null") + ",\"target\":"
                    + "\"https://example.com/kutt/" + i + "\",\"visit_count\":" + i + ",\"created_at\":"
                    + "\"2024-05-0" + (i + 1) + "T12:00:00.000Z\",\"updated_at\":\"2024-05-0" + (i + 1)
                    + "T12:00:00.000Z\",\"link\":\"https://kutt.it/kutt-" + i + "\"}");
        }
        return "{\"limit\":" + limit + ",\"skip\":" + skip + ",\"total\":5,\"data\":[" + String.join(",", items) + "]}";
    }

    @Test
    void kuttImportWaitsOutA429AndResumesFromItsCheckpointAfterAFailure() {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger failuresLeft = new AtomicInteger(1);
        try (StandIn kutt = new StandIn("/api/v2/links", request -> {
            int skip = Integer.parseInt(StandIn.parameter(request, "skip"));
            int limit = Integer.parseInt(StandIn.parameter(request, "limit"));
            if (calls.incrementAndGet() == 2) { // the first page asked: Kutt's rate limit answer
                return new StandIn.Answer(429, "{\"error\":\"Too many requests.\"}", "1");
            }
            if (skip == 4 && failuresLeft.getAndDecrement() > 0) { // a refusal, not retried: the import stops
                return new StandIn.Answer(400, "{\"error\":\"Something went wrong.\"}", null);
            }
            return StandIn.Answer.ok(kuttPage(skip, limit));
        })) {
            Map<String, Object> failed = importFrom(Map.of("from", "kutt", "url", kutt.url()));
            assertThat(failed.get("status")).isEqualTo("failed");
            assertThat((String) failed.get("error")).contains("400");
            assertThat(failed.get("checkpoint")).isEqualTo("2"); // the page of the last link of the last batch written
            web.get().uri("/kutt-2").exchange().expectStatus().isFound();

            Map<String, Object> resumed = importFrom(Map.of("from", "kutt", "url", kutt.url()));
            assertThat(resumed.get("id")).isEqualTo(failed.get("id"));
            assertThat(resumed.get("status")).isEqualTo("done");
            assertThat(result(resumed)).containsEntry("created", 2).containsEntry("unchanged", 1);
            long firstPageReads = kutt.seen.stream()
                    .filter(request -> "0".equals(StandIn.parameter(request, "skip"))
                            && !"1".equals(StandIn.parameter(request, "limit")))
                    .count();
            assertThat(firstPageReads)
                    .as("the first page, read before the 429 and after it, never again")
                    .isEqualTo(2);
            assertThat(kutt.seen)
                    .allSatisfy(request -> assertThat(request.apiKey()).isEqualTo("token-from-settings"));
            web.get()
                    .uri("/rest/v3/short-urls/kutt-0")
                    .exchange()
                    .expectBody()
                    .jsonPath("$.title")
                    .isEqualTo("Kutt link 0")
                    .jsonPath("$.meta.validUntil")
                    .isEqualTo("2030-01-01T00:00:00+00:00")
                    .jsonPath("$.dateCreated")
                    .isEqualTo("2024-05-01T12:00:00+00:00");
            web.get()
                    .uri("/rest/v3/short-urls/kutt-4")
                    .exchange()
                    .expectBody()
                    .jsonPath("$.visitsSummary.total")
                    .isEqualTo(4);
        }
    }

    /**
     * Bitly's {@code GET /v4/groups/{group_guid}/bitlinks?size=N[&search_after=…]} with a bearer token, as
     * https://dev.bitly.com/api-reference/#getBitlinksByGroup documents it: {@code links} with {@code id},
     * {@code long_url}, {@code title}, {@code tags}, {@code created_at} ({@code 2024-01-02T03:04:05+0000}), and
     * {@code pagination} with {@code next}, {@code total} and {@code search_after}.
     */
    static String bitlyPage(String after, String base) {
        String first = "{\"created_at\":\"2024-01-02T03:04:05+0000\",\"id\":\"bit.ly/bit-one\",\"link\":"
                + "\"https://bit.ly/bit-one\",\"custom_bitlinks\":[],\"long_url\":\"https://example.com/bitly/one\","
                + "\"title\":\"Bitly one\",\"archived\":false,\"tags\":[\"from-bitly\",\"one\"],\"deeplinks\":[],"
                + "\"references\":{\"group\":\"" + base + "\"}}";
        String second = "{\"created_at\":\"2024-01-03T03:04:05+0000\",\"id\":\"bit.ly/bit-two\",\"link\":"
                + "\"https://bit.ly/bit-two\",\"custom_bitlinks\":[],\"long_url\":\"https://example.com/bitly/two\","
                + "\"title\":\"Bitly two\",\"archived\":false,\"tags\":[],\"deeplinks\":[]}";
        String third = "{\"created_at\":\"2024-01-04T03:04:05+0000\",\"id\":\"bit.ly/bit-three\",\"link\":"
                + "\"https://bit.ly/bit-three\",\"custom_bitlinks\":[],\"long_url\":\"https://example.com/bitly/three\","
                + "\"title\":null,\"archived\":false,\"tags\":[\"from-bitly\"],\"deeplinks\":[]}";
        if (after == null) {
            return "{\"links\":[" + first + "," + second + "],\"pagination\":{\"prev\":\"\",\"next\":\"" + base
                    + "/bitlinks?search_after=cursor%2B2&size=2\",\"size\":2,\"page\":1,\"total\":3,"
                    + "\"search_after\":\"cursor+2\"}}";
        }
        assertThat(after).isEqualTo("cursor+2");
        return "{\"links\":[" + third + "],\"pagination\":{\"prev\":\"\",\"next\":\"\",\"size\":2,\"page\":2,"
                + "\"total\":3,\"search_after\":\"\"}}";
    }

    @Test
    void bitlyBackHalvesTagsAndTitlesArriveFollowingSearchAfter() {
        String[] base = new String[1];
        try (StandIn bitly = new StandIn(
                "/v4/groups/Ba1bc23dE4F/bitlinks",
                request -> StandIn.Answer.ok(bitlyPage(StandIn.parameter(request, "search_after"), base[0])))) {
            base[0] = bitly.url() + "/v4/groups/Ba1bc23dE4F";
            Map<String, Object> job = importFrom(Map.of("from", "bitly", "url", base[0], "apiKey", "token-in-the-job"));
            assertThat(job.get("status")).isEqualTo("done");
            assertThat(result(job)).containsEntry("created", 3);
            assertThat(bitly.seen)
                    .allSatisfy(request -> assertThat(request.authorization()).isEqualTo("Bearer token-in-the-job"));
            web.get()
                    .uri("/rest/v3/short-urls/bit-one")
                    .exchange()
                    .expectBody()
                    .jsonPath("$.tags")
                    .isEqualTo(List.of("from-bitly", "one"))
                    .jsonPath("$.title")
                    .isEqualTo("Bitly one")
                    .jsonPath("$.dateCreated")
                    .isEqualTo("2024-01-02T03:04:05+00:00");
            web.get().uri("/bit-three").exchange().expectHeader().location("https://example.com/bitly/three");
        }
    }

    @Test
    void aSourceThatKeepsAnswering429FailsTheJobAfterItsRetries() {
        try (StandIn kutt = new StandIn(
                "/api/v2/links", request -> new StandIn.Answer(429, "{\"error\":\"Too many requests.\"}", "0"))) {
            Map<String, Object> job = importFrom(Map.of("from", "kutt", "url", kutt.url() + "/"));
            assertThat(job.get("status")).isEqualTo("failed");
            assertThat((String) job.get("error")).contains("429");
        }
    }

    Map<String, Object> importFrom(Map<String, Object> body) {
        return TransferTest.importAndWait(web, "/api/v1/imports", MediaType.APPLICATION_JSON, body);
    }
}
