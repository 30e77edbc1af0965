package dev.shortgate.redirect.invalidation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.support.Pods;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;

/** Two pods on one MariaDB and Redis: a code created on A drops B's negative entry through Redis pub/sub. */
class CrossPodInvalidationIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.redirect.near-cache.negative-ttl", "10m") // only the message can drop it
            .count(2);

    @Test
    void negativeEntryOnOtherPodIsDroppedWhenTheCodeIsCreated() {
        pods.b().web().get().uri("/coming-soon").exchange().expectStatus().isNotFound();
        assertThat(pods.b().bean(NearCache.class).getIfPresent("coming-soon"))
                .as("B holds a negative entry")
                .isNotNull();

        pods.a()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/arrived", "alias", "coming-soon"))
                .exchange()
                .expectStatus()
                .isCreated();

        Awaitility.await("B drops its negative entry")
                .atMost(Duration.ofSeconds(1))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> pods.b().bean(NearCache.class).getIfPresent("coming-soon") == null);
        pods.b()
                .web()
                .get()
                .uri("/coming-soon")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/arrived");
    }
}
