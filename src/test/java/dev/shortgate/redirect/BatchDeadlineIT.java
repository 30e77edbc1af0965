package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.Pods;
import dev.shortgate.support.StalledRedis;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Creates while Redis hangs (a relay to the test Redis that goes silent): a create answers within its short wait for
 * the announcement, a batch answers by its deadline with what was done and a {@code deadline-exceeded} problem for
 * each item it did not finish, and once Redis answers again the next batch works in full.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BatchDeadlineIT {

    static final Duration BATCH_DEADLINE = Duration.ofSeconds(2);
    /** How long an announcement may take in the background (the writes' deadline), and so a create may wait for it. */
    static final Duration ANNOUNCE_LIMIT = Duration.ofSeconds(3);

    static final StalledRedis redis = StalledRedis.relayingToTestRedis();

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("spring.data.redis.url", redis.url())
            .with("shortgate.api.batch-deadline", BATCH_DEADLINE.toMillis() + "ms")
            // Redis writes wait 1.5 s for a silent Redis, and a create waits for its whole announcement (the guard and
            // the link, then the invalidation: 3 s, the writes' deadline): new items of a batch then cannot finish
            // within its 2 s deadline. (At 1 s a call, the announcement took about as long as the deadline: a coin
            // toss.)
            .with("shortgate.redirect.redis.writes.timeout", "1500ms")
            .with("shortgate.redirect.redis.writes.deadline", ANNOUNCE_LIMIT.toMillis() + "ms")
            // Lettuce's own command timeout (500 ms by default here) would end each call first
            .with("spring.data.redis.timeout", "10s")
            .with("shortgate.api.announce-wait", "5s");

    @AfterAll
    static void stopStandIn() {
        redis.close();
    }

    @Test
    @Order(1)
    void singleCreateAnswersWithinTheAnnouncementsBoundWhileRedisHangs() {
        create("https://example.com/warm"); // Redis answered: the connection is open
        redis.silence();
        long started = System.nanoTime();
        String code = create("https://example.com/while-silent");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(ANNOUNCE_LIMIT.plusMillis(1500));
        web().get().uri("/" + code).exchange().expectStatus().isFound(); // served by this pod's near cache
    }

    @Test
    @Order(2)
    void batchAnswersByItsDeadlineWithWhatWasDoneAndAProblemForTheRest() {
        redis.silence();
        // Keep every Redis call waiting for its full timeout (an open breaker would refuse them at once, and the
        // batch would simply finish): 1,000 creates at eight at a time then take far longer than the deadline.
        breaker().transitionToDisabledState();
        List<Map<String, Object>> items = new ArrayList<>(urls("stalled", 999));
        items.add(0, Map.of("url", "https://example.com/warm")); // made before: found at once

        long started = System.nanoTime();
        EntityExchangeResult<Map> answer = web().post()
                .uri("/api/v1/links/batch")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("links", items))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).isLessThan(BATCH_DEADLINE.plusSeconds(1));
        assertThat(answer.getResponseHeaders().getFirst("Retry-After")).isEqualTo("1");
        List<Map<String, Object>> results = results(answer);
        assertThat(results).hasSize(1000);
        assertThat(results.get(0))
                .as("what was done is answered")
                .containsEntry("status", 200)
                .containsEntry("url", "https://example.com/warm");
        long created = 0;
        long late = 0;
        for (int i = 1; i < results.size(); i++) {
            Map<String, Object> result = results.get(i);
            if (result.containsKey("code")) {
                created++;
                assertThat(result.get("status")).isEqualTo(201);
            } else {
                late++;
                assertThat(result)
                        .containsEntry("type", "https://shortgate.dev/problems/deadline-exceeded")
                        .containsEntry("status", 503)
                        .containsEntry("index", i);
            }
        }
        assertThat(late).as("items not finished by the deadline").isPositive();
        assertThat(pods.database()
                        .queryForLong(
                                "SELECT COUNT(*) FROM link WHERE long_url LIKE " + "'https://example.com/stalled/%'"))
                .isGreaterThanOrEqualTo(created);
    }

    @Test
    @Order(3)
    void nextBatchWorksOnceRedisAnswersAgainAndResendingFindsWhatTheLateOneWrote() {
        redis.answer();
        breaker().transitionToClosedState();
        List<Map<String, Object>> fresh = urls("after", 50);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            List<Map<String, Object>> results = results(web().post()
                    .uri("/api/v1/links/batch")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("links", fresh))
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectHeader()
                    .doesNotExist("Retry-After")
                    .expectBody(Map.class)
                    .returnResult());
            assertThat(results).allSatisfy(result -> assertThat(result).containsKey("code"));
        });

        List<List<Map<String, Object>>> resent = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> { // each resend finishes more within the deadline
                            resent.add(
                                    0,
                                    results(web().post()
                                            .uri("/api/v1/links/batch")
                                            .contentType(MediaType.APPLICATION_JSON)
                                            .bodyValue(Map.of("links", urls("stalled", 999)))
                                            .exchange()
                                            .expectStatus()
                                            .isOk()
                                            .expectBody(Map.class)
                                            .returnResult()));
                            assertThat(resent.get(0)).allSatisfy(result -> assertThat(result.get("status"))
                                    .isIn(200, 201));
                        });
        assertThat(pods.database()
                        .queryForLong(
                                "SELECT COUNT(*) FROM link WHERE long_url LIKE " + "'https://example.com/stalled/%'"))
                .as("one row per URL")
                .isEqualTo(999);
        String code = resent.get(0).get(998).get("code").toString();
        web().get()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/stalled/998");
    }

    /** The breaker of the writes: what creates announce goes through it. */
    private static CircuitBreaker breaker() {
        return pods.app().context().getBean("redisWrites", RedisCalls.class).circuitBreaker();
    }

    private static List<Map<String, Object>> urls(String path, int count) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(Map.of("url", "https://example.com/" + path + "/" + i));
        }
        return items;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> results(EntityExchangeResult<Map> answer) {
        return (List<Map<String, Object>>) answer.getResponseBody().get("results");
    }

    private static String create(String url) {
        return web().post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
    }

    private static WebTestClient web() {
        return pods.app().web().mutate().responseTimeout(Duration.ofSeconds(15)).build();
    }
}
