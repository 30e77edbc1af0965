package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

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

/** Two pods on one MariaDB and Redis: a code created on A drops B's negative entry through Redis pub/sub. */
class CrossPodInvalidationIT {

    static TestServers.Database database;
    static RunningApp a;
    static RunningApp b;

    @BeforeAll
    static void start() {
        database = TestServers.newDatabase();
        Map<String, Object> properties = new HashMap<>(database.properties());
        properties.put("spring.data.redis.url", TestServers.redisUrl());
        properties.put("shortgate.redirect.redis.key-prefix", TestServers.newRedisPrefix());
        properties.put("shortgate.redirect.near-cache.negative-ttl", "10m"); // only the message can drop it
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
    void negativeEntryOnOtherPodIsDroppedWhenTheCodeIsCreated() {
        b.web().get().uri("/coming-soon").exchange().expectStatus().isNotFound();
        assertThat(b.bean(NearCache.class).getIfPresent("coming-soon")).as("B holds a negative entry").isNotNull();

        a.web().post().uri("/api/v1/links").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/arrived", "alias", "coming-soon"))
                .exchange().expectStatus().isCreated();

        long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        while (b.bean(NearCache.class).getIfPresent("coming-soon") != null && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
        b.web().get().uri("/coming-soon").exchange().expectStatus().isFound()
                .expectHeader().valueEquals("Location", "https://example.com/arrived");
    }
}
