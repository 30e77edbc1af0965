package dev.shortgate.galera;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.support.Conflicts;
import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The visits suite's exact count on a 3-node Galera cluster: two pods on two nodes redirect the same few links at
 * once and both flush their counts to the same {@code link_stats} rows every 50 ms, so their flushes collide on the
 * cluster (a certification failure at COMMIT, retried whole). Every 302 served is counted once: the aggregate total
 * equals the 302s, and the raw rows too. Prints the conflicts and flushes it saw (docs/resilience.md).
 */
class GaleraVisitCountIT {

    @RegisterExtension
    static final Pods PODS = Pods.onGalera()
            .with("shortgate.visit.counts-flush-interval", "50ms")
            .with("shortgate.visit.flush-interval", "50ms")
            .with("shortgate.security.rate-limit.api-capacity", 100_000)
            .with("shortgate.security.rate-limit.api-refill", 100_000)
            .count(2);

    @Test
    void theAggregateTotalEqualsTheRedirectsServedByTwoPodsOnTwoNodes() {
        List<String> codes = Flux.range(0, 4)
                .concatMap(i -> create(PODS.a(), "https://example.com/exact/" + i))
                .collectList()
                .block(Duration.ofSeconds(60));
        AtomicLong found = new AtomicLong();
        AtomicLong other = new AtomicLong();
        int requests = 3000;
        long started = System.nanoTime();
        Flux.range(0, requests)
                .flatMap(i -> redirect(i % 2 == 0 ? PODS.a() : PODS.b(), codes.get(i % codes.size())), 64)
                .doOnNext(status -> (status == 302 ? found : other).incrementAndGet())
                .blockLast(Duration.ofSeconds(240));
        double seconds = (System.nanoTime() - started) / 1e9;

        assertThat(other).as("answers other than 302").hasValue(0);
        assertThat(found).hasValue(requests);
        TestServers.Database database = PODS.database();
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    assertThat(database.queryForLong("SELECT COALESCE(SUM(visits), 0) FROM link_stats"))
                            .isEqualTo(found.get());
                    assertThat(database.queryForLong("SELECT COUNT(*) FROM visit"))
                            .isEqualTo(found.get());
                });
        // The sum is the same on every node.
        for (String node : TestServers.galeraNodeUrls()) {
            assertThat(database.queryForLongOn(node, "SELECT COALESCE(SUM(visits), 0) FROM link_stats"))
                    .as(node)
                    .isEqualTo(found.get());
        }

        long flushes = flushes(PODS.a()) + flushes(PODS.b());
        Timer a = PODS.a()
                .bean(MeterRegistry.class)
                .find("shortgate.visits.counts.flush")
                .timer();
        System.out.printf(
                "[galera] pod A count flushes: %d, mean %.1f ms, max %.1f ms%n",
                a.count(),
                a.mean(java.util.concurrent.TimeUnit.MILLISECONDS),
                a.max(java.util.concurrent.TimeUnit.MILLISECONDS));
        long conflicts = Conflicts.conflicts(PODS.a(), "visit_flush") + Conflicts.conflicts(PODS.b(), "visit_flush");
        System.out.printf(
                "[galera] exact count: %d redirects in %.1f s (%.0f/s) on two nodes, %d visits counted; %d count "
                        + "flushes, %d lost a conflict (%.1f%%); pod A %s, pod B %s%n",
                requests,
                seconds,
                requests / seconds,
                found.get(),
                flushes,
                conflicts,
                flushes == 0 ? 0.0 : 100.0 * conflicts / flushes,
                Conflicts.of(PODS.a()),
                Conflicts.of(PODS.b()));
    }

    private static long flushes(RunningApp app) {
        Timer timer = app.bean(MeterRegistry.class)
                .find("shortgate.visits.counts.flush")
                .timer();
        return timer == null ? 0 : timer.count();
    }

    static Mono<String> create(RunningApp app, String url) {
        return WebClient.create("http://127.0.0.1:" + app.port())
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .header("X-Api-Key", TestServers.ADMIN_KEY)
                .bodyValue(Map.of("url", url))
                .retrieve()
                .bodyToMono(Map.class)
                .map(body -> String.valueOf(body.get("code")));
    }

    static Mono<Integer> redirect(RunningApp app, String code) {
        return WebClient.create("http://127.0.0.1:" + app.port())
                .get()
                .uri("/" + code)
                .exchangeToMono(response ->
                        response.releaseBody().thenReturn(response.statusCode().value()));
    }
}
