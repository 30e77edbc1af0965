package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/**
 * Two pods sharing a big bucket settle with Redis in arrears: most checks are answered from a pod's copy, and
 * together the pods go over the limit by at most their slack each.
 */
class SharedRateLimitSlackIT {

    static final int LIMIT = 1000;
    static final double SLACK = 0.01;

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.security.rate-limit.api-capacity", LIMIT)
            .with("shortgate.security.rate-limit.api-refill", "1")
            .with("shortgate.security.rate-limit.api-period", "1h")
            .with("shortgate.security.rate-limit.redis-slack", SLACK)
            // generous, so a loaded CI machine never falls back to per-pod buckets mid-test
            .with("shortgate.security.rate-limit.redis-timeout", "5s")
            .count(2);

    @Test
    void twoPodsTogetherGoOverTheLimitByAtMostTheirSlackWhileMostChecksSkipRedis() {
        List<Integer> statuses = Flux.range(0, LIMIT + 300)
                .flatMap(
                        i -> WebClient.create("http://127.0.0.1:" + (i % 2 == 0 ? pods.a() : pods.b()).port())
                                .get()
                                .uri("/api/v1/links?limit=1")
                                .header("X-Api-Key", TestServers.ADMIN_KEY)
                                .exchangeToMono(response -> response.releaseBody()
                                        .thenReturn(response.statusCode().value())),
                        8)
                .collectList()
                .block(Duration.ofSeconds(120));
        long accepted = statuses.stream().filter(status -> status == 200).count();
        assertThat(statuses).containsOnly(200, 429);
        double unsettled = 0;
        for (RunningApp app : new RunningApp[] {pods.a(), pods.b()}) {
            MeterRegistry registry = app.bean(MeterRegistry.class);
            assertThat(registry.get("shortgate.ratelimit.fallbacks").counter().count())
                    .as("checks that fell back to a local bucket")
                    .isZero();
            unsettled += registry.get("shortgate.ratelimit.unsettled").counter().count();
        }
        long slackTokens = (long) (LIMIT * SLACK);
        assertThat(accepted).isGreaterThanOrEqualTo(LIMIT - 1).isLessThanOrEqualTo(LIMIT + 2 * slackTokens);
        assertThat(unsettled).as("checks answered without a Redis round trip").isGreaterThan(statuses.size() / 2.0);
    }
}
