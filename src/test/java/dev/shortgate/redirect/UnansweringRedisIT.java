package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.support.Pods;
import dev.shortgate.support.StalledRedis;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Redis accepts connections and never answers, not even the handshake, from the moment the pod starts: creates
 * and redirects still answer, from the database, without waiting on Redis. Before Shortgate opened its Redis
 * connection in the background, every lookup blocked its event loop for the whole handshake (1.2 to 1.8 s here),
 * because Lettuce connects with a blocking call that Spring's template made while the request subscribed,
 * before the lookup's own 100 ms timeout had been armed. With the handshake timeout set to 3 s here, that old
 * path fails this test; the lookup deadline (2 s) now bounds every request whatever the cause.
 */
class UnansweringRedisIT {

    static final StalledRedis redis = StalledRedis.neverAnswering();

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("spring.data.redis.url", redis.url())
            .with("spring.data.redis.timeout", "3s"); // Lettuce's handshake waits this long for an answer

    @AfterAll
    static void stopStandIn() {
        redis.close();
    }

    @Test
    void codesStillRedirectFromTheDatabaseWithoutWaitingOnRedis() {
        String code = pods.app().shorten("https://example.com/unanswered");
        pods.app().web().get().uri("/" + code).exchange().expectStatus().isFound(); // warm, while Redis is tried
        double redisErrors = lookups("redis", "error");
        // Each request must answer within the lookup deadline (2 s), well inside the 3 s handshake
        WebTestClient web = pods.app()
                .web()
                .mutate()
                .responseTimeout(Duration.ofMillis(2500))
                .build();

        for (int i = 0; i < 5; i++) {
            pods.app().bean(NearCache.class).invalidate(code);
            web.get()
                    .uri("/" + code)
                    .exchange()
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .valueEquals("Location", "https://example.com/unanswered");
            assertThat(pods.app().bean(NearCache.class).getIfPresent(code)).isDone();
        }
        assertThat(lookups("redis", "error")).isEqualTo(redisErrors + 5);
        assertThat(lookups("db", "hit")).isGreaterThanOrEqualTo(5);
        assertThat(redis.connectionsAccepted()).isPositive(); // it was tried, in the background
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
}
