package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.shortgate.support.RunningApp;
import dev.shortgate.visit.enrich.GeoLocatorTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The whole visit path on the embedded database (H2 in MySQL mode, as {@code ./mvnw spring-boot:run} uses): the
 * redirect records, the writer's multi-row INSERT and ON DUPLICATE KEY upsert run on H2, and the stats API reads
 * them back. The test client is a trusted proxy here, so {@code X-Forwarded-For} stands for the visitor.
 */
class VisitsOnH2Test {

    static final String CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Safari/537.36";
    static final String GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    static RunningApp app;
    static String code;

    @BeforeAll
    static void start() {
        Map<String, Object> properties = new HashMap<>();
        properties.put(
                "spring.r2dbc.url",
                "r2dbc:h2:file:///./target/h2-visits-" + UUID.randomUUID()
                        + "/db?options=MODE=MySQL;DATABASE_TO_LOWER=TRUE");
        properties.put("shortgate.visit.trusted-proxies", "127.0.0.0/8,::1/128");
        properties.put("shortgate.visit.counts-flush-interval", "100ms");
        properties.put("shortgate.visit.sketch-flush-interval", "100ms");
        properties.put(
                "shortgate.visit.geoip-database", GeoLocatorTest.database().toString());
        app = RunningApp.start(properties);
        code = app.web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/h2-visits"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();

        for (int i = 0; i < 3; i++) {
            app.web()
                    .get()
                    .uri("/" + code)
                    .header("User-Agent", CHROME)
                    .header("X-Forwarded-For", "81.2.69.142")
                    .header("Referer", "https://news.example/item")
                    .exchange()
                    .expectStatus()
                    .isFound();
        }
        // A second batch for the same link and day: its counter upsert takes the ON DUPLICATE KEY path.
        await().atMost(Duration.ofSeconds(90)).until(() -> count("SELECT COUNT(*) FROM visit") == 3);
        app.web()
                .get()
                .uri("/" + code)
                .header("User-Agent", GOOGLEBOT)
                .header("X-Forwarded-For", "89.160.20.112")
                .exchange()
                .expectStatus()
                .isFound();
        app.web()
                .head()
                .uri("/" + code)
                .header("User-Agent", CHROME)
                .exchange()
                .expectStatus()
                .isFound();
        app.web().get().uri("/no-such-link").exchange().expectStatus().isNotFound();

        await().atMost(Duration.ofSeconds(90))
                .until(() -> count("SELECT COUNT(*) FROM visit") == 4
                        && count("SELECT COALESCE(SUM(visits), 0) FROM link_stats") == 4
                        && count("SELECT COUNT(*) FROM visit_sketch") >= 1);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void getRedirectsAreRecordedButHeadAndUnknownCodesAreNot() {
        assertThat(count("SELECT COUNT(*) FROM visit")).isEqualTo(4);
        assertThat(count("SELECT SUM(visits) FROM link_stats")).isEqualTo(4);
        assertThat(count("SELECT SUM(bot_visits) FROM link_stats")).isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM visit WHERE code = 'no-such-link'"))
                .isZero();
    }

    @Test
    void statsExcludeBotsByDefault() {
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        WebTestClient.BodyContentSpec body = app.web()
                .get()
                .uri("/api/v1/links/{code}/stats?from={d}&to={d}", code, today, today)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody();

        body.jsonPath("$.visits.total")
                .isEqualTo(4)
                .jsonPath("$.visits.nonBots")
                .isEqualTo(3)
                .jsonPath("$.visits.bots")
                .isEqualTo(1)
                .jsonPath("$.totalVisits")
                .isEqualTo(3)
                .jsonPath("$.uniqueVisitors")
                .isEqualTo(1)
                .jsonPath("$.bots")
                .isEqualTo(false)
                .jsonPath("$.perDay.length()")
                .isEqualTo(1)
                .jsonPath("$.perDay[0].date")
                .isEqualTo(today)
                .jsonPath("$.perDay[0].visits")
                .isEqualTo(3)
                .jsonPath("$.perDay[0].total")
                .isEqualTo(4)
                .jsonPath("$.perDay[0].nonBots")
                .isEqualTo(3)
                .jsonPath("$.perDay[0].bots")
                .isEqualTo(1)
                .jsonPath("$.topBrowsers[0].label")
                .isEqualTo("Chrome")
                .jsonPath("$.topBrowsers[0].visits")
                .isEqualTo(3)
                .jsonPath("$.topDeviceClasses[0].label")
                .isEqualTo("Desktop")
                .jsonPath("$.topOperatingSystems[0].label")
                .isEqualTo("Windows NT")
                .jsonPath("$.topReferrerHosts[0].label")
                .isEqualTo("news.example")
                .jsonPath("$.topReferrerHosts[0].visits")
                .isEqualTo(3);
        body.jsonPath("$.topCountries[0].label")
                .isEqualTo("GB")
                .jsonPath("$.topCountries.length()")
                .isEqualTo(1);
    }

    @Test
    void statsIncludeBotsWhenAsked() {
        app.web()
                .get()
                .uri("/api/v1/links/{code}/stats?bots=true", code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.total")
                .isEqualTo(4)
                .jsonPath("$.totalVisits")
                .isEqualTo(4)
                .jsonPath("$.uniqueVisitors")
                .isEqualTo(2)
                .jsonPath("$.perDay.length()")
                .isEqualTo(30)
                .jsonPath("$.topDeviceClasses.length()")
                .isEqualTo(2);
    }

    @Test
    void visitsArePagedNewestFirstWithTheIdAsCursor() {
        Map<?, ?> first = page("/api/v1/links/" + code + "/visits?limit=3");
        List<?> visits = (List<?>) first.get("visits");
        assertThat(visits).hasSize(3);
        String cursor = (String) first.get("nextCursor");
        assertThat(cursor).hasSize(16);

        Map<?, ?> second = page("/api/v1/links/" + code + "/visits?limit=3&cursor=" + cursor);
        assertThat((List<?>) second.get("visits")).hasSize(1);
        assertThat(second.get("nextCursor")).isNull();

        Map<?, ?> newest = (Map<?, ?>) visits.get(0);
        assertThat(newest.get("bot")).isEqualTo(true);
        assertThat(newest.get("ip")).isEqualTo("89.160.20.0");
        assertThat((String) newest.get("id")).hasSize(16);
        Map<?, ?> oldest = (Map<?, ?>) ((List<?>) second.get("visits")).get(0);
        assertThat(oldest.get("ip")).isEqualTo("81.2.69.0");
        assertThat(oldest.get("browser")).isEqualTo("Chrome");
        assertThat(oldest.get("country")).isEqualTo("GB");
        assertThat(oldest.get("city")).isEqualTo("London");
    }

    @Test
    void unknownCodeAnswersLinkNotFoundProblem() {
        for (String path : List.of("/api/v1/links/nope404/stats", "/api/v1/links/nope404/visits")) {
            app.web()
                    .get()
                    .uri(path)
                    .exchange()
                    .expectStatus()
                    .isNotFound()
                    .expectHeader()
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("https://shortgate.dev/problems/link-not-found");
        }
    }

    @Test
    void badParametersAnswerInvalidRequestProblemNamingTheField() {
        badRequest("/api/v1/links/" + code + "/stats?from=2025-13-01", "from");
        badRequest("/api/v1/links/" + code + "/stats?from=2025-02-01&to=2025-01-01", "from");
        badRequest("/api/v1/links/" + code + "/stats?from=2020-01-01&to=2025-01-01", "from");
        badRequest("/api/v1/links/" + code + "/stats?to=yesterday", "to");
        badRequest("/api/v1/links/" + code + "/stats?bots=maybe", "bots");
        badRequest("/api/v1/links/" + code + "/visits?limit=0", "limit");
        badRequest("/api/v1/links/" + code + "/visits?limit=many", "limit");
        badRequest("/api/v1/links/" + code + "/visits?cursor=not-an-id", "cursor");
    }

    private static void badRequest(String uri, String field) {
        app.web()
                .get()
                .uri(uri)
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-request")
                .jsonPath("$.field")
                .isEqualTo(field);
    }

    private static Map<?, ?> page(String uri) {
        return app.web()
                .get()
                .uri(uri)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
    }

    static long count(String sql) {
        Number n = app.bean(DatabaseClient.class)
                .sql(sql)
                .map(row -> (Number) row.get(0))
                .one()
                .block();
        return n == null ? 0 : n.longValue();
    }
}
