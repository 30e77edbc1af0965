package dev.shortgate.redirect.invalidation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import dev.shortgate.support.Pods;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;

/**
 * Two pods on one MariaDB and Redis, with a near-cache TTL far longer than the test: a change made on A is seen
 * on B within a second, which only the invalidation message can bring about.
 */
class CrossPodChangeIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.redirect.near-cache.ttl", "10m")
            .count(2);

    @Test
    void patchAndDeleteOnOnePodAreSeenOnTheOtherWithinOneSecond() {
        pods.a()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/v1", "alias", "shared"))
                .exchange()
                .expectStatus()
                .isCreated();
        pods.b().web().get().uri("/shared").exchange().expectHeader().valueEquals("Location", "https://example.com/v1");

        pods.a()
                .web()
                .patch()
                .uri("/api/v1/links/shared")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/v2"))
                .exchange()
                .expectStatus()
                .isOk();
        awaitOnB("/shared", 302, "https://example.com/v2");

        pods.a()
                .web()
                .delete()
                .uri("/api/v1/links/shared")
                .exchange()
                .expectStatus()
                .isNoContent();
        awaitOnB("/shared", 404, null);
    }

    private static void awaitOnB(String path, int status, String location) {
        Awaitility.await("B answers " + status + " for " + path)
                .atMost(Duration.ofSeconds(1))
                .pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> {
                    var result = pods.b().web().get().uri(path).exchange().returnResult(String.class);
                    assertThat(result.getStatus().value()).isEqualTo(status);
                    if (location != null) {
                        assertThat(result.getResponseHeaders().getFirst("Location"))
                                .isEqualTo(location);
                    }
                });
    }
}
