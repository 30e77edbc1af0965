package dev.shortgate.redirect;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * Two pods on one MariaDB and Redis, with a near-cache TTL far longer than the test: a change made on A is seen
 * on B within a second, which only the invalidation message can bring about.
 */
class CrossPodChangeIT {

    static TestServers.Database database;
    static RunningApp a;
    static RunningApp b;

    @BeforeAll
    static void start() {
        database = TestServers.newDatabase();
        Map<String, Object> properties = new HashMap<>(database.properties());
        properties.put("spring.data.redis.url", TestServers.redisUrl());
        properties.put("shortgate.redirect.redis.key-prefix", TestServers.newRedisPrefix());
        properties.put("shortgate.redirect.near-cache.ttl", "10m");
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
    void patchAndDeleteOnOnePodAreSeenOnTheOtherWithinOneSecond() {
        a.web().post().uri("/api/v1/links").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/v1", "alias", "shared")).exchange()
                .expectStatus().isCreated();
        b.web().get().uri("/shared").exchange().expectHeader().valueEquals("Location", "https://example.com/v1");

        a.web().patch().uri("/api/v1/links/shared").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/v2")).exchange().expectStatus().isOk();
        awaitOnB("/shared", 302, "https://example.com/v2");

        a.web().delete().uri("/api/v1/links/shared").exchange().expectStatus().isNoContent();
        awaitOnB("/shared", 404, null);
    }

    private static void awaitOnB(String path, int status, String location) {
        long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        while (System.nanoTime() < deadline) {
            var result = b.web().get().uri(path).exchange().returnResult(String.class);
            if (result.getStatus().value() == status
                    && (location == null || location.equals(result.getResponseHeaders().getFirst("Location")))) {
                return;
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
        b.web().get().uri(path).exchange().expectStatus().isEqualTo(status);
        if (location != null) {
            b.web().get().uri(path).exchange().expectHeader().valueEquals("Location", location);
        }
    }
}
