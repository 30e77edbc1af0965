package dev.shortgate.redirect.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;

/**
 * A second pod starts while the first has been serving: it reads the hot codes the first pod published to Redis,
 * holds them in its near cache before it reports ready, and its own warm-up requests were neither visits nor
 * metrics.
 */
class WarmupIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.warmup.enabled", true)
            .with("shortgate.warmup.sample-one-in", 1)
            .with("shortgate.warmup.requests", 500)
            .with("shortgate.warmup.publish-every", "1h");

    @Test
    void secondPodPreloadsTheHotCodesFromRedisBeforeReadyAndRecordsNoVisitForItsWarmUp() {
        RunningApp a = pods.app();
        List<String> hot = new ArrayList<>();
        List<String> cold = new ArrayList<>(); // in Redis (written through on create), never requested
        for (int i = 0; i < 10; i++) {
            String code = a.shorten("https://example.com/warm/" + i);
            if (i >= 5) {
                cold.add(code);
            } else {
                hot.add(code);
                for (int r = 0; r < 20; r++) {
                    a.web().get().uri("/" + code).exchange().expectStatus().isFound();
                }
            }
        }
        a.bean(HotCodes.class).publish().block(Duration.ofSeconds(10));

        Map<String, Object> properties = new HashMap<>(pods.properties());
        try (RunningApp b = RunningApp.start(properties)) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> ready(b));
            // at the first ready answer the hot codes are already in memory
            NearCache near = b.bean(NearCache.class);
            assertThat(hot).allSatisfy(code -> assertThat(near.getIfPresent(code))
                    .as("near cache holds %s", code)
                    .isNotNull());
            assertThat(cold).allSatisfy(code -> assertThat(near.getIfPresent(code))
                    .as("the working-set preload holds %s", code)
                    .isNotNull());
            MeterRegistry registry = b.bean(MeterRegistry.class);
            assertThat(registry.get("shortgate.warmup.preloaded")
                            .tag("set", "working-set")
                            .counter()
                            .count())
                    .isGreaterThanOrEqualTo(cold.size());
            assertThat(registry.get("shortgate.redirect.fast").counter().count())
                    .as("the warm-up requests were answered on the fast path")
                    .isGreaterThan(0);
            assertThat(registry.find("shortgate.redirect").timers())
                    .as("no redirect metric")
                    .isEmpty();
            assertThat(registry.get("shortgate.visits.counted").counter().count())
                    .isZero();
            assertThat(registry.get("shortgate.visits.orphans.counted")
                            .counter()
                            .count())
                    .isZero();

            // a preloaded link that changes is invalidated on this pod like any other entry
            String changed = cold.get(0);
            a.web()
                    .patch()
                    .uri("/api/v1/links/" + changed)
                    .contentType(MediaType.valueOf("application/merge-patch+json"))
                    .header("X-Api-Key", TestServers.ADMIN_KEY)
                    .bodyValue(Map.of("url", "https://example.com/changed"))
                    .exchange()
                    .expectStatus()
                    .is2xxSuccessful();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> b.web()
                    .get()
                    .uri("/" + changed)
                    .exchange()
                    .expectHeader()
                    .valueEquals("Location", "https://example.com/changed"));
        }
    }

    private static boolean ready(RunningApp app) {
        return app.management()
                        .get()
                        .uri("/actuator/health/readiness")
                        .exchange()
                        .returnResult(String.class)
                        .getStatus()
                        .value()
                == 200;
    }
}
