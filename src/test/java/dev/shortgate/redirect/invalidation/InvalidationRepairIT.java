package dev.shortgate.redirect.invalidation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

import dev.shortgate.redirect.RedisCalls;
import dev.shortgate.support.Pods;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.http.MediaType;

/**
 * A link change that Redis refuses when it is made (here: pod A's circuit breaker is held open) must not leave the
 * old state in Redis for the Redis TTL. Pod A serves the new state at once (from the database, as its Redis calls
 * fail), and clears the key and publishes the invalidation in the background, so once Redis takes calls again
 * pod B sees the change too.
 */
class InvalidationRepairIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.redirect.near-cache.ttl", "10m")
            .with("shortgate.redirect.redis.repair.first-backoff", "100ms")
            .with("shortgate.redirect.redis.repair.max-backoff", "1s")
            .count(2);

    @Test
    void changeRefusedByRedisIsServedAtOnceLocallyAndReachesOtherPodsOnceRedisRecovers() {
        pods.a()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/v1", "alias", "repair-me"))
                .exchange()
                .expectStatus()
                .isCreated();
        pods.b()
                .web()
                .get()
                .uri("/repair-me")
                .exchange()
                .expectHeader()
                .valueEquals("Location", "https://example.com/v1");

        var breaker =
                pods.a().context().getBean("redisWrites", RedisCalls.class).circuitBreaker();
        breaker.transitionToForcedOpenState();
        try {
            pods.a()
                    .web()
                    .patch()
                    .uri("/api/v1/links/repair-me")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("url", "https://example.com/v2"))
                    .exchange()
                    .expectStatus()
                    .isOk();

            pods.a()
                    .web()
                    .get()
                    .uri("/repair-me")
                    .exchange()
                    .expectHeader()
                    .valueEquals("Location", "https://example.com/v2");
            assertThat(redisValue()).contains("https://example.com/v1");
            assertThat(pending()).isEqualTo(1);
        } finally {
            breaker.transitionToClosedState();
        }

        await(
                () -> "https://example.com/v2"
                        .equals(pods.b()
                                .web()
                                .get()
                                .uri("/repair-me")
                                .exchange()
                                .returnResult(Void.class)
                                .getResponseHeaders()
                                .getFirst("Location")),
                "pod B serves the new state");
        assertThat(redisValue()).doesNotContain("https://example.com/v1");
        assertThat(pending()).isZero();
        assertThat(pods.a()
                        .bean(MeterRegistry.class)
                        .get("shortgate.invalidations.repairs")
                        .tag("result", "cleared")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    private static String redisValue() {
        String value = pods.a()
                .bean(ReactiveStringRedisTemplate.class)
                .opsForValue()
                .get(pods.redisPrefix() + "link:repair-me")
                .block(Duration.ofSeconds(2));
        return value == null ? "" : value;
    }

    private static double pending() {
        return pods.a()
                .bean(MeterRegistry.class)
                .get("shortgate.invalidations.pending")
                .gauge()
                .value();
    }

    private static void await(BooleanSupplier condition, String what) {
        Awaitility.await(what)
                .atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(50))
                .until(condition::getAsBoolean);
    }
}
