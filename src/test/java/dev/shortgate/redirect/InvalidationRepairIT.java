package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.http.MediaType;

/**
 * A link change that Redis refuses when it is made (here: pod A's circuit breaker is held open) must not leave the
 * old state in Redis for the Redis TTL. Pod A serves the new state at once (from the database, as its Redis calls
 * fail), and clears the key and publishes the invalidation in the background, so once Redis takes calls again
 * pod B sees the change too.
 */
class InvalidationRepairIT {

    static TestServers.Database database;
    static String prefix;
    static RunningApp a;
    static RunningApp b;

    @BeforeAll
    static void start() {
        database = TestServers.newDatabase();
        prefix = TestServers.newRedisPrefix();
        Map<String, Object> properties = new HashMap<>(database.properties());
        properties.put("spring.data.redis.url", TestServers.redisUrl());
        properties.put("shortgate.redirect.redis.key-prefix", prefix);
        properties.put("shortgate.redirect.near-cache.ttl", "10m");
        properties.put("shortgate.redirect.redis.repair.first-backoff", "100ms");
        properties.put("shortgate.redirect.redis.repair.max-backoff", "1s");
        a = RunningApp.start(properties);
        b = RunningApp.start(properties);
    }

    @AfterAll
    static void stop() {
        for (RunningApp app : new RunningApp[] {a, b}) {
            if (app != null) {
                app.close();
            }
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void changeRefusedByRedisIsServedAtOnceLocallyAndReachesOtherPodsOnceRedisRecovers() {
        a.web().post().uri("/api/v1/links").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/v1", "alias", "repair-me")).exchange()
                .expectStatus().isCreated();
        b.web().get().uri("/repair-me").exchange().expectHeader().valueEquals("Location", "https://example.com/v1");

        var breaker = a.bean(RedisLinks.class).circuitBreaker();
        breaker.transitionToForcedOpenState();
        try {
            a.web().patch().uri("/api/v1/links/repair-me").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("url", "https://example.com/v2")).exchange().expectStatus().isOk();

            a.web().get().uri("/repair-me").exchange().expectHeader().valueEquals("Location", "https://example.com/v2");
            assertThat(redisValue()).contains("https://example.com/v1");
            assertThat(pending()).isEqualTo(1);
        } finally {
            breaker.transitionToClosedState();
        }

        await(() -> "https://example.com/v2".equals(b.web().get().uri("/repair-me").exchange()
                .returnResult(Void.class).getResponseHeaders().getFirst("Location")), "pod B serves the new state");
        assertThat(redisValue()).doesNotContain("https://example.com/v1");
        assertThat(pending()).isZero();
        assertThat(a.bean(MeterRegistry.class).get("shortgate.invalidations.repairs").tag("result", "cleared")
                .counter().count()).isEqualTo(1);
    }

    private static String redisValue() {
        String value = a.bean(ReactiveStringRedisTemplate.class).opsForValue().get(prefix + "link:repair-me")
                .block(Duration.ofSeconds(2));
        return value == null ? "" : value;
    }

    private static double pending() {
        return a.bean(MeterRegistry.class).get("shortgate.invalidations.pending").gauge().value();
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + " within 15 s").isLessThan(deadline);
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
    }
}
