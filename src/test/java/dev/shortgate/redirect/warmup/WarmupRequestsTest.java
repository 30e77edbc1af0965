package dev.shortgate.redirect.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.redirect.lookup.LinkLookup;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The warm-up's own requests run after the preload, over the hot codes topped up with links the near cache holds,
 * and alternate near-cache misses and hits: the mix a new pod's traffic brings, so the JIT compiles both branches.
 */
class WarmupRequestsTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<String> steps = new CopyOnWriteArrayList<>();
    final List<String> requested = new CopyOnWriteArrayList<>();
    /** The test's clock for the JIT's activity. */
    final AtomicLong nanos = new AtomicLong();

    /** Holds codes c0..c99 after the working-set preload; records the order of what the warm-up asks of it. */
    final LinkLookup lookup = new LinkLookup() {
        @Override
        public Mono<Found> find(String code) {
            return Mono.never();
        }

        @Override
        public Mono<Integer> preload(List<String> codes) {
            return Mono.fromSupplier(() -> {
                steps.add("preload " + codes.size());
                return codes.size();
            });
        }

        @Override
        public Mono<Void> preloadWorkingSet(int max, AtomicInteger held) {
            return Mono.fromRunnable(() -> steps.add("working set"));
        }

        @Override
        public void forget(Collection<String> codes) {
            steps.add("forget " + codes.size() + " after " + requested.size() + " requests");
        }

        @Override
        public List<String> held(int max) {
            List<String> codes = new ArrayList<>();
            for (int i = 0; i < Math.min(max, 100); i++) {
                codes.add("c" + i);
            }
            return codes;
        }
    };

    @Test
    void theRequestCodesAreTheHotCodesToppedUpWithLinksTheNearCacheHolds() {
        Warmup warmup = warmup(0, 70);

        assertThat(warmup.requestCodes(List.of("hot1", "c3", "hot2")))
                .hasSize(70)
                .startsWith("hot1", "c3", "hot2", "c0", "c1", "c2", "c4")
                .doesNotHaveDuplicates();
        assertThat(warmup.requestCodes(List.of()))
                .as("no hot set yet: links the near cache holds, at least a pass's worth")
                .hasSize(70)
                .startsWith("c0", "c1");
    }

    @Test
    void everyOtherPassIsMissesAndThePreloadComesFirstAndLast() {
        DisposableServer server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((request, response) -> {
                    requested.add(request.uri());
                    return response.status(HttpResponseStatus.FOUND).send();
                })
                .bindNow();
        try {
            // 64 codes (hot-codes 64): passes of 64 + 64/7 = 73 requests; 4 passes
            Warmup warmup = warmup(4 * 73, 64);

            warmup.run(server.port()).block(Duration.ofSeconds(30));

            assertThat(steps)
                    .containsExactly(
                            "preload 0",
                            "working set",
                            "forget 64 after 0 requests",
                            "forget 64 after 146 requests",
                            "preload 64");
            assertThat(requested).hasSize(4 * 73).contains("/c0", "/c63", "/warmup-unknown-7");
        } finally {
            server.disposeNow();
        }
    }

    @Test
    void afterItsCountTheRequestsGoOnWhileTheJitIsBusyAndStopOnceItIsQuiet() {
        // each request takes 10 ms of the test's clock; the compilers are busy all along until the 500th
        run(warmup(73, 64, 0.25, Duration.ofSeconds(20), jitBusyUntil(500 * 10_000_000L)));

        assertThat(requested.size())
                .as("past the JIT's quiet point by at most the two windows (of whole passes) that show it")
                .isGreaterThan(500)
                .isLessThanOrEqualTo(500 + 4 * 73);
    }

    @Test
    void withTheJitCheckOffTheRequestsStopAtTheirCount() {
        run(warmup(2 * 73, 64, 0, Duration.ofSeconds(20), jitBusyUntil(Long.MAX_VALUE)));

        assertThat(requested).hasSize(2 * 73);
    }

    @Test
    void aJitThatStaysBusyHoldsTheRequestsNoLongerThanRequestsWithin() {
        long started = System.nanoTime();
        run(warmup(73, 64, 0.25, Duration.ofMillis(500), jitBusyUntil(Long.MAX_VALUE)));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(requested.size()).isGreaterThan(73);
        assertThat(steps).last().isEqualTo("preload 64");
    }

    /** The compilers busy all along until {@code quietFrom} on the test's clock, then idle. */
    private JitActivity jitBusyUntil(long quietFrom) {
        return new JitActivity(() -> Math.min(nanos.get(), quietFrom) / 1_000_000, nanos::get);
    }

    /** Runs the warm-up against a server that answers 302 and moves the test's clock 10 ms a request. */
    private void run(Warmup warmup) {
        DisposableServer server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((request, response) -> {
                    requested.add(request.uri());
                    nanos.addAndGet(10_000_000L);
                    return response.status(HttpResponseStatus.FOUND).send();
                })
                .bindNow();
        try {
            warmup.run(server.port()).block(Duration.ofSeconds(30));
        } finally {
            server.disposeNow();
        }
    }

    private Warmup warmup(int requests, int hotCodes) {
        return warmup(requests, hotCodes, 0, Duration.ofSeconds(20), JitActivity.UNKNOWN);
    }

    private Warmup warmup(int requests, int hotCodes, double jitQuietBelow, Duration requestsWithin, JitActivity jit) {
        WarmupProperties properties = new WarmupProperties(
                true,
                Duration.ofSeconds(20),
                requests,
                requestsWithin,
                1, // one at a time: the count of requests before each forget is exact
                hotCodes,
                8,
                Duration.ofSeconds(30),
                Duration.ofMinutes(10),
                100_000,
                Duration.ofSeconds(8),
                jitQuietBelow);
        return new Warmup(
                Mono.empty(),
                HotCodes.NONE,
                lookup,
                WarmupRequests.random(),
                properties,
                Schedulers.parallel(),
                jit,
                registry);
    }
}
