package dev.shortgate.redirect.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import dev.shortgate.support.Pods;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.http.MediaType;

/** Each tier answers in turn on real MariaDB and Redis, and what a lower tier finds is written back above it. */
class TierFallThroughIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb().withRedis();

    @Test
    void eachTierIsHitInTurnAndWrittenBack() {
        pods.app()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/tiers", "alias", "tiers"))
                .exchange()
                .expectStatus()
                .isCreated();
        ReactiveStringRedisTemplate redis = pods.app().bean(ReactiveStringRedisTemplate.class);
        String key = pods.redisPrefix() + "link:tiers";
        assertThat(redis.hasKey(key).block(Duration.ofSeconds(5)))
                .as("created link written through to Redis")
                .isTrue();

        NearCache near = pods.app().bean(NearCache.class);
        near.invalidate("tiers");
        redirectOnce();
        assertThat(count("near")).isZero();
        assertThat(count("redis")).isEqualTo(1);

        redirectOnce();
        assertThat(count("near")).isEqualTo(1);

        near.invalidate("tiers");
        redis.delete(key).block(Duration.ofSeconds(5));
        redirectOnce();
        assertThat(count("db")).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> // written back after the answer, not before it
                        assertThat(redis.hasKey(key).block(Duration.ofSeconds(5)))
                                .as("database hit written back to Redis")
                                .isTrue());
        assertThat(near.getIfPresent("tiers"))
                .as("database hit written back to the near cache")
                .isNotNull();

        redirectOnce();
        assertThat(count("near")).isEqualTo(2);
    }

    private static void redirectOnce() {
        pods.app()
                .web()
                .get()
                .uri("/tiers")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/tiers");
    }

    /** Redirects answered from {@code tier}; 0 before the first, as a timer is registered when first used. */
    private static long count(String tier) {
        Timer timer = pods.app()
                .bean(MeterRegistry.class)
                .find("shortgate.redirect")
                .tag("tier", tier)
                .tag("outcome", "found")
                .timer();
        return timer == null ? 0 : timer.count();
    }
}
