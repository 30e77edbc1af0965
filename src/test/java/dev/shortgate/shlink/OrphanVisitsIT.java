package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.shortgate.support.Pods;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/**
 * Orphan visits on real MariaDB: a flood of random unknown codes, the base URL and another 404 are written as raw
 * rows through the visit buffer and counted exactly per day and type; Shlink's overview and list show them (checked
 * against its pinned schemas) and its delete removes rows and counts.
 */
class OrphanVisitsIT {

    static final String API = "/rest/v3";
    static final String ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    static final int FLOOD = 500;
    static final String CHROME =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) " + "Chrome/120.0 Safari/537.36";

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .with("shortgate.base-url", "https://sho.rt")
            .with("shortgate.visit.counts-flush-interval", "100ms")
            // the flood comes from one client: its unknown-code budget is not what this test is about
            .with("shortgate.security.rate-limit.not-found-capacity", "1000000")
            .with("shortgate.security.rate-limit.not-found-refill", "1000000");

    @Test
    void floodBaseUrlAndOther404sAreWrittenCountedListedAndDeleted() {
        WebTestClient web = pods.app().web();
        List<Integer> statuses = flood(FLOOD);
        assertThat(statuses).containsOnly(404);
        web.get()
                .uri("/")
                .header(HttpHeaders.USER_AGENT, "Googlebot/2.1 (+http://www.google.com/bot.html)")
                .exchange()
                .expectStatus()
                .isNotFound();
        web.get()
                .uri(URI.create("http://127.0.0.1:" + pods.app().port() + "/it/o%27brien?q=%22x%22"))
                .header(HttpHeaders.USER_AGENT, CHROME)
                .exchange()
                .expectStatus()
                .isNotFound();

        long expected = FLOOD + 2;
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(pods.database().queryForLong("SELECT COALESCE(SUM(visits), 0) FROM orphan_visit_stats"))
                    .isEqualTo(expected);
            assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM orphan_visit"))
                    .isEqualTo(expected);
        });
        assertThat(pods.database().queryForLong("SELECT visits FROM orphan_visit_stats WHERE type = 1"))
                .isEqualTo(FLOOD);
        assertThat(pods.database().queryForLong("SELECT bot_visits FROM orphan_visit_stats WHERE type = 2"))
                .isEqualTo(1);
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link_stats"))
                .isZero(); // no per-code counts
        assertThat(pods.app()
                        .bean(MeterRegistry.class)
                        .get("shortgate.visits.buffered")
                        .gauge()
                        .value())
                .isZero();

        String overview = web.get()
                .uri(API + "/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits.json", "get", "200", overview);
        assertThat(overview)
                .contains(
                        "\"orphanVisits\":{\"total\":" + expected + ",\"nonBots\":" + (expected - 1) + ",\"bots\":1}");
        String regular = web.get()
                .uri(API + "/visits/orphan?type=regular_404")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits_orphan.json", "get", "200", regular);
        assertThat(regular).contains("\"visitedUrl\":\"https://sho.rt/it/o%27brien?q=%22x%22\"", "\"totalItems\":1");
        web.get()
                .uri(API + "/visits/orphan?itemsPerPage=100&page=6")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(expected)
                .jsonPath("$.visits.data.length()")
                .isEqualTo(2);

        String deleted = web.delete()
                .uri(API + "/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits_orphan.json", "delete", "200", deleted);
        assertThat(deleted).isEqualTo("{\"deletedVisits\":" + expected + "}");
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM orphan_visit"))
                .isZero();
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM orphan_visit_stats"))
                .isZero();
    }

    private static List<Integer> flood(int requests) {
        WebClient client = WebClient.builder()
                .baseUrl("http://127.0.0.1:" + pods.app().port())
                .defaultHeader(HttpHeaders.USER_AGENT, CHROME)
                .build();
        return Flux.range(0, requests)
                .flatMap(
                        i -> client.get().uri("/" + randomCode()).exchangeToMono(response -> response.releaseBody()
                                .thenReturn(response.statusCode().value())),
                        4)
                .collectList()
                .block(Duration.ofSeconds(120));
    }

    private static String randomCode() {
        StringBuilder code = new StringBuilder(7);
        for (int i = 0; i < 7; i++) {
            code.append(ALPHABET.charAt(ThreadLocalRandom.current().nextInt(ALPHABET.length())));
        }
        return code.toString();
    }
}
