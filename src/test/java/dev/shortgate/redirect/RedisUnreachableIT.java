package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * Redis configured but unreachable (a port where nothing listens): creates still succeed and redirects still
 * answer, from the near cache and then from the database. The shared Redis server is never stopped.
 */
class RedisUnreachableIT {

    static TestServers.Database database;
    static RunningApp app;

    @BeforeAll
    static void start() {
        TestServers.redisUrl(); // this test belongs to the Redis suite; skip with it
        database = TestServers.newDatabase();
        Map<String, Object> properties = new HashMap<>(database.properties());
        properties.put("spring.data.redis.url", "redis://127.0.0.1:1");
        app = RunningApp.start(properties);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void redirectsStillAnswerFromNearCacheAndDatabase() {
        String code = app.web().post().uri("/api/v1/links").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/no-redis"))
                .exchange().expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody().get("code").toString();

        app.web().get().uri("/" + code).exchange().expectStatus().isFound()
                .expectHeader().valueEquals("Location", "https://example.com/no-redis");

        for (int i = 0; i < 30; i++) { // enough failures to open the circuit breaker along the way
            app.bean(NearCache.class).invalidate(code);
            app.web().get().uri("/" + code).exchange().expectStatus().isFound()
                    .expectHeader().valueEquals("Location", "https://example.com/no-redis");
        }
        app.web().get().uri("/unknownCode").exchange().expectStatus().isNotFound();

        MeterRegistry registry = app.bean(MeterRegistry.class);
        assertThat(registry.get("shortgate.lookups").tag("tier", "redis").tag("result", "error").counter().count())
                .isGreaterThanOrEqualTo(30);
        assertThat(registry.get("shortgate.redirect").tag("tier", "db").tag("outcome", "found").timer().count())
                .isEqualTo(30);
        assertThat(registry.get("shortgate.redirect").tag("outcome", "error").timers())
                .allSatisfy(timer -> assertThat(timer.count()).isZero());
    }
}
