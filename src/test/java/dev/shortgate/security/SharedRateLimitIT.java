package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/** Two pods sharing Redis share one bucket per key: together they accept no more than the limit. */
class SharedRateLimitIT {

    static final int LIMIT = 20;

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.security.rate-limit.api-capacity", LIMIT)
            .with("shortgate.security.rate-limit.api-refill", "1")
            .with("shortgate.security.rate-limit.api-period", "1h")
            // generous, so a loaded CI machine never falls back to per-pod buckets mid-test
            .with("shortgate.security.rate-limit.redis-timeout", "5s")
            .count(2);

    @Test
    void twoPodsTogetherAcceptAtMostTheLimit() {
        List<Integer> statuses = Flux.range(0, 60)
                .flatMap(
                        i -> WebClient.create("http://127.0.0.1:" + (i % 2 == 0 ? pods.a() : pods.b()).port())
                                .get()
                                .uri("/api/v1/links?limit=1")
                                .header("X-Api-Key", TestServers.ADMIN_KEY)
                                .exchangeToMono(response -> response.releaseBody()
                                        .thenReturn(response.statusCode().value())),
                        8)
                .collectList()
                .block(Duration.ofSeconds(60));
        long accepted = statuses.stream().filter(status -> status == 200).count();
        assertThat(statuses).containsOnly(200, 429);
        for (RunningApp app : new RunningApp[] {pods.a(), pods.b()}) {
            assertThat(app.bean(io.micrometer.core.instrument.MeterRegistry.class)
                            .get("shortgate.ratelimit.fallbacks")
                            .counter()
                            .count())
                    .as("checks that fell back to a local bucket")
                    .isZero();
        }
        assertThat(accepted).isLessThanOrEqualTo(LIMIT).isGreaterThanOrEqualTo(LIMIT - 1);
    }
}
