package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.support.Pods;
import dev.shortgate.support.StalledRedis;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Redis that stops answering mid-conversation (a relay to the test Redis that goes silent): a redirect whose
 * code is in no near cache still answers from the database within its deadline, no pending load stays in the
 * near cache, and once Redis answers again the next request is served normally.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StalledRedisIT {

    static final StalledRedis redis = StalledRedis.relayingToTestRedis();

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb().withRedis().with("spring.data.redis.url", redis.url());

    @AfterAll
    static void stopStandIn() {
        redis.close();
    }

    @Test
    @Order(1)
    void codeStillRedirectsFromTheDatabaseWhileRedisHangs() {
        String code = create("https://example.com/stalled");
        web().get().uri("/" + code).exchange().expectStatus().isFound(); // Redis answered: connection warm

        redis.silence();
        for (int i = 0; i < 3; i++) {
            pods.app().bean(NearCache.class).invalidate(code);
            web().get()
                    .uri("/" + code)
                    .exchange()
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .valueEquals("Location", "https://example.com/stalled");
            assertThat(pods.app().bean(NearCache.class).getIfPresent(code))
                    .satisfies(entry -> assertThat(entry == null || entry.isDone())
                            .as("no load left pending")
                            .isTrue());
        }

        redis.answer(); // the silenced connection is dropped; Lettuce reconnects by itself
        double redisHits = lookups("redis", "hit");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            pods.app().bean(NearCache.class).invalidate(code);
            web().get()
                    .uri("/" + code)
                    .exchange()
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .valueEquals("Location", "https://example.com/stalled");
            assertThat(lookups("redis", "hit")).isGreaterThan(redisHits);
        });
    }

    @Test
    @Order(2)
    void timeoutsWhileRedisAnswersNothingOpenTheBreaker() {
        String code = create("https://example.com/breaker");
        redis.silence();
        var breaker = pods.app().bean(RedisCalls.class).circuitBreaker();
        breaker.reset(); // closed, with no calls recorded: the first test's silence may have left it half-open
        var opened = new java.util.concurrent.atomic.AtomicBoolean();
        breaker.getEventPublisher()
                .onStateTransition(
                        event -> { // it may be half-open again by the end of the loop
                            if (event.getStateTransition().getToState()
                                    == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN) {
                                opened.set(true);
                            }
                        });
        for (int i = 0; i < 25; i++) {
            pods.app().bean(NearCache.class).invalidate(code);
            web().get().uri("/" + code).exchange().expectStatus().isFound();
        }
        assertThat(opened).as("the breaker opened").isTrue();
        assertThat(breaker.getState()).isNotEqualTo(io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED);
        redis.answer();
    }

    private static double lookups(String tier, String result) {
        return pods.app()
                .bean(MeterRegistry.class)
                .get("shortgate.lookups")
                .tag("tier", tier)
                .tag("result", result)
                .counter()
                .count();
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
        return pods.app().web().mutate().responseTimeout(Duration.ofSeconds(10)).build();
    }
}
