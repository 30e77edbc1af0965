package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.shortgate.support.Pods;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;

/**
 * Redis configured but unreachable (a port where nothing listens): creates still succeed and redirects still
 * answer, from the near cache and then from the database. The shared Redis server is never stopped.
 */
class RedisUnreachableIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis() // this test belongs to the Redis suite; skip with it
            .with("spring.data.redis.url", "redis://127.0.0.1:1");

    @Test
    void redirectsStillAnswerFromNearCacheAndDatabase() {
        String code = pods.app().web().post().uri("/api/v1/links").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/no-redis"))
                .exchange().expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody().get("code").toString();

        pods.app().web().get().uri("/" + code).exchange().expectStatus().isFound()
                .expectHeader().valueEquals("Location", "https://example.com/no-redis");

        for (int i = 0; i < 30; i++) { // enough failures to open the circuit breaker along the way
            pods.app().bean(NearCache.class).invalidate(code);
            pods.app().web().get().uri("/" + code).exchange().expectStatus().isFound()
                    .expectHeader().valueEquals("Location", "https://example.com/no-redis");
        }
        pods.app().web().get().uri("/unknownCode").exchange().expectStatus().isNotFound();

        MeterRegistry registry = pods.app().bean(MeterRegistry.class);
        assertThat(registry.get("shortgate.lookups").tag("tier", "redis").tag("result", "error").counter().count())
                .isGreaterThanOrEqualTo(30);
        assertThat(registry.get("shortgate.redirect").tag("tier", "db").tag("outcome", "found").timer().count())
                .isEqualTo(30);
        assertThat(registry.get("shortgate.redirect").tag("outcome", "error").timers())
                .allSatisfy(timer -> assertThat(timer.count()).isZero());
    }
}
