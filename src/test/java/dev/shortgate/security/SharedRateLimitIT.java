package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/** Two pods sharing Redis share one bucket per key: together they accept no more than the limit. */
class SharedRateLimitIT {

    static final int LIMIT = 20;
    static TestServers.Database database;
    static RunningApp a;
    static RunningApp b;

    @BeforeAll
    static void start() {
        database = TestServers.newDatabase();
        Map<String, Object> properties = new HashMap<>(database.properties());
        properties.put("spring.data.redis.url", TestServers.redisUrl());
        properties.put("shortgate.redirect.redis.key-prefix", TestServers.newRedisPrefix());
        properties.put("shortgate.security.rate-limit.api-capacity", String.valueOf(LIMIT));
        properties.put("shortgate.security.rate-limit.api-refill", "1");
        properties.put("shortgate.security.rate-limit.api-period", "1h");
        // generous, so a loaded CI machine never falls back to per-pod buckets mid-test
        properties.put("shortgate.security.rate-limit.redis-timeout", "5s");
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
    void twoPodsTogetherAcceptAtMostTheLimit() {
        List<Integer> statuses = Flux.range(0, 60)
                .flatMap(i -> WebClient.create("http://127.0.0.1:" + (i % 2 == 0 ? a : b).port())
                        .get().uri("/api/v1/links?limit=1").header("X-Api-Key", TestServers.ADMIN_KEY)
                        .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value())), 8)
                .collectList().block(Duration.ofSeconds(60));
        long accepted = statuses.stream().filter(status -> status == 200).count();
        assertThat(statuses).containsOnly(200, 429);
        for (RunningApp app : new RunningApp[] {a, b}) {
            assertThat(app.bean(io.micrometer.core.instrument.MeterRegistry.class).get("shortgate.ratelimit.fallbacks")
                    .counter().count()).as("checks that fell back to a local bucket").isZero();
        }
        assertThat(accepted).isLessThanOrEqualTo(LIMIT).isGreaterThanOrEqualTo(LIMIT - 1);
    }
}
