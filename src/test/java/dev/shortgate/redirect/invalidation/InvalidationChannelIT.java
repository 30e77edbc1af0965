package dev.shortgate.redirect.invalidation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.StalledRedis;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;

/**
 * A pod cut off from Redis (pod B, behind a relay that goes silent: a network partition) misses the invalidation of a
 * link that pod A changes meanwhile. B keeps serving what its near cache holds, never an error; once Redis answers
 * again, B subscribes to the channel again and clears its near cache, so it serves the change long before the
 * near-cache TTL (10 minutes here) would have ended the old entry.
 */
class InvalidationChannelIT {

    static final StalledRedis relay = StalledRedis.relayingToTestRedis();

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.redirect.near-cache.ttl", "10m")
            .with("shortgate.redirect.redis.channel-check", "300ms");

    static RunningApp b;

    @BeforeAll
    static void startPodBehindTheRelay() {
        Map<String, Object> properties = new HashMap<>(pods.properties());
        properties.put("spring.data.redis.url", relay.url());
        b = RunningApp.start(properties);
    }

    @AfterAll
    static void stopPodAndRelay() {
        if (b != null) {
            b.close();
        }
        relay.close();
    }

    @Test
    void podCutOffFromRedisSubscribesAgainAndClearsItsNearCacheOnceRedisAnswers() {
        pods.app()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/v1", "alias", "moving"))
                .exchange()
                .expectStatus()
                .isCreated();
        await().atMost(Duration.ofSeconds(10)).until(() -> "https://example.com/v1".equals(location()));

        relay.silence();
        pods.app()
                .web()
                .patch()
                .uri("/api/v1/links/moving")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/v2"))
                .exchange()
                .expectStatus()
                .isOk();
        await("B serves its near cache, never an error, while cut off")
                .during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(5))
                .until(() -> "https://example.com/v1".equals(location()));

        relay.answer();
        await("B serves the change once Redis answers again")
                .atMost(Duration.ofSeconds(10))
                .until(() -> "https://example.com/v2".equals(location()));
        assertThat(b.bean(MeterRegistry.class)
                        .get("shortgate.invalidations.resubscribed")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(1);
    }

    private static String location() {
        return b.web()
                .get()
                .uri("/moving")
                .exchange()
                .expectStatus()
                .isFound()
                .returnResult(Void.class)
                .getResponseHeaders()
                .getFirst("Location");
    }
}
