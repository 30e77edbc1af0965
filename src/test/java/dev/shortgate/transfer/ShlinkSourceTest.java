package dev.shortgate.transfer;

import static dev.shortgate.transfer.TransferTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Shlink as a source is a real server: a second Shortgate instance serving its Shlink REST API v3, with links made
 * through that API and visited through its redirects. A third, empty instance takes the importer's export back in,
 * which proves the round trip.
 */
class ShlinkSourceTest {

    static RunningApp source;
    static RunningApp target;

    @BeforeAll
    static void start() {
        source = RunningApp.start(Map.of(
                "spring.r2dbc.url", h2("shlink-source"),
                "shortgate.visit.flush-interval", "50ms",
                "shortgate.visit.counts-flush-interval", "100ms"));
        target = RunningApp.start(Map.of("spring.r2dbc.url", h2("shlink-target"), "shortgate.transfer.page-size", "2"));
    }

    @AfterAll
    static void stop() {
        if (source != null) {
            source.close();
        }
        if (target != null) {
            target.close();
        }
    }

    static String h2(String name) {
        return "r2dbc:h2:mem:///" + name + "?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE";
    }

    @Test
    void shlinkShortUrlsArriveWithCodesTagsTitlesDatesLifecycleAndVisits() {
        WebTestClient from = source.web();
        shorten(
                from,
                Map.of(
                        "longUrl",
                        "https://example.com/shlink/one",
                        "customSlug",
                        "shl-one",
                        "tags",
                        List.of("alpha", "beta"),
                        "title",
                        "Shlink one",
                        "crawlable",
                        true,
                        "forwardQuery",
                        false,
                        "maxVisits",
                        100,
                        "validUntil",
                        "2031-01-01T00:00:00+00:00"));
        shorten(from, Map.of("longUrl", "https://example.com/shlink/two", "customSlug", "shl-two"));
        shorten(
                from,
                Map.of(
                        "longUrl",
                        "https://example.com/shlink/three",
                        "customSlug",
                        "shl-three",
                        "tags",
                        List.of("alpha")));
        for (String agent : List.of("Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", "curl/8.5.0", "Googlebot/2.1")) {
            from.get()
                    .uri("/shl-one")
                    .header("User-Agent", agent)
                    .exchange()
                    .expectStatus()
                    .isFound();
        }
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> from.get()
                .uri("/rest/v3/short-urls/shl-one/visits")
                .exchange()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(3));
        String original = shortUrl(from, "shl-one");

        WebTestClient to = target.web();
        Map<String, Object> job = start(
                to,
                Map.of(
                        "from",
                        "shlink",
                        "url",
                        "http://127.0.0.1:" + source.port(),
                        "apiKey",
                        TestServers.ADMIN_KEY,
                        "withVisits",
                        true));
        assertThat(job.get("status")).as(String.valueOf(job)).isEqualTo("done");
        assertThat(result(job)).containsEntry("created", 3).containsEntry("visits", 3);

        String imported = shortUrl(to, "shl-one");
        for (String field : List.of(
                "\"shortCode\":\"shl-one\"",
                "\"longUrl\":\"https://example.com/shlink/one\"",
                "\"tags\":[\"alpha\",\"beta\"]",
                "\"title\":\"Shlink one\"",
                "\"crawlable\":true",
                "\"forwardQuery\":false",
                "\"maxVisits\":100",
                "\"validUntil\":\"2031-01-01T00:00:00+00:00\"")) {
            assertThat(original).contains(field);
            assertThat(imported).contains(field);
        }
        assertThat(field(imported, "dateCreated")).isEqualTo(field(original, "dateCreated"));
        rawVisits(to, 3);
        // the visits, with the source's bot classification, in the aggregates
        assertThat(summary(imported)).isEqualTo(summary(original)).contains("\"total\":3");

        // the same import again changes nothing
        Map<String, Object> again = start(
                to,
                Map.of(
                        "from",
                        "shlink",
                        "url",
                        "http://127.0.0.1:" + source.port(),
                        "apiKey",
                        TestServers.ADMIN_KEY,
                        "withVisits",
                        true));
        assertThat(result(again)).containsEntry("created", 0).containsEntry("unchanged", 3);
        rawVisits(to, 3);
        to.get()
                .uri("/rest/v3/short-urls/shl-one")
                .exchange()
                .expectBody()
                .jsonPath("$.visitsSummary.total")
                .isEqualTo(3);
    }

    @Test
    void anExportImportedIntoAnEmptyInstanceGivesBackIdenticalLinks() {
        WebTestClient from = source.web();
        shorten(
                from,
                Map.of(
                        "longUrl",
                        "https://example.com/round/trip",
                        "customSlug",
                        "round-trip",
                        "tags",
                        List.of("trip"),
                        "title",
                        "Round, \"quoted\" trip",
                        "validUntil",
                        "2032-02-02T02:02:02+00:00"));
        from.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/round/generated", "redirectStatus", 308))
                .exchange()
                .expectStatus()
                .isCreated();
        String exported = export(from);
        try (RunningApp empty = RunningApp.start(Map.of("spring.r2dbc.url", h2("round-trip-empty")))) {
            WebTestClient to = empty.web();
            Map<String, Object> job =
                    TransferTest.importAndWait(to, "/api/v1/imports", MediaType.parseMediaType("text/csv"), exported);
            assertThat(job.get("status")).isEqualTo("done");
            assertThat(result(job)).containsEntry("refused", 0).containsEntry("conflicts", 0);
            assertThat(export(to)).isEqualTo(exported);
        }
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

    static Map<String, Object> start(WebTestClient web, Map<String, Object> body) {
        return TransferTest.importAndWait(web, "/api/v1/imports", MediaType.APPLICATION_JSON, body);
    }

    static void shorten(WebTestClient web, Map<String, Object> body) {
        web.post()
                .uri("/rest/v3/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isOk();
    }

    static String shortUrl(WebTestClient web, String code) {
        return web.get()
                .uri("/rest/v3/short-urls/" + code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    /** The raw visits of shl-one, as Shlink's visit list shows them, with their user agents. */
    static void rawVisits(WebTestClient web, int count) {
        web.get()
                .uri("/rest/v3/short-urls/shl-one/visits")
                .exchange()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(count)
                .jsonPath("$.visits.data[?(@.userAgent == 'curl/8.5.0')]")
                .exists();
    }

    static String summary(String json) {
        int at = json.indexOf("\"visitsSummary\":");
        return json.substring(at, json.indexOf('}', at) + 1);
    }

    static String field(String json, String name) {
        int at = json.indexOf("\"" + name + "\":\"") + name.length() + 4;
        return json.substring(at, json.indexOf('"', at));
    }
}
