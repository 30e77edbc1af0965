package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.support.Pods;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis configured but unreachable (a port where nothing listens): creates still succeed and redirects still
 * answer, from the near cache and then from the database, and no call waits on Redis. The shared Redis server is never stopped.
 */
class RedisUnreachableIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis() // this test belongs to the Redis suite; skip with it
            .with("spring.data.redis.url", "redis://127.0.0.1:1");

    @Test
    void redirectsStillAnswerFromNearCacheAndDatabase() {
        String code = pods.app().shorten("https://example.com/no-redis");

        pods.app()
                .web()
                .get()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/no-redis");

        for (int i = 0; i < 30; i++) { // more than the breaker's minimum number of calls
            pods.app().bean(NearCache.class).invalidate(code);
            pods.app()
                    .web()
                    .get()
                    .uri("/" + code)
                    .exchange()
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .valueEquals("Location", "https://example.com/no-redis");
        }
        pods.app().web().get().uri("/unknownCode").exchange().expectStatus().isNotFound();

        MeterRegistry registry = pods.app().bean(MeterRegistry.class);
        assertThat(registry.get("shortgate.lookups")
                        .tag("tier", "redis")
                        .tag("result", "error")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(30);
        assertThat(registry.get("shortgate.redirect")
                        .tag("tier", "db")
                        .tag("outcome", "found")
                        .timer()
                        .count())
                .isEqualTo(30);
        assertThat(registry.find("shortgate.redirect").tag("outcome", "error").timers())
                .allSatisfy(timer -> assertThat(timer.count()).isZero());
        // A connection never opened fails each call at once (SharedRedis.NotConnected) without waiting on Redis:
        // the breaker ignores such calls, since they say nothing of how Redis answers, and stays closed.
        assertThat(pods.app().bean(RedisCalls.class).circuitBreaker().getState())
                .isEqualTo(io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED);
        assertThat(pods.app()
                        .bean(RedisCalls.class)
                        .circuitBreaker()
                        .getMetrics()
                        .getNumberOfNotPermittedCalls())
                .isZero();
    }

    @Test
    void podStaysReadyWhileRedisIsUnreachable() {
        // Redis refuses every connection (and the other test's lookups fail over to the database): still ready.
        pods.app()
                .management()
                .get()
                .uri("/actuator/health/readiness")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo("UP")
                .jsonPath("$.components.databaseReachable.status")
                .isEqualTo("UP")
                .jsonPath("$.components.redis")
                .doesNotExist();
    }
}
