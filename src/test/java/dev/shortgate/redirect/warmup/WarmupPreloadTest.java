package dev.shortgate.redirect.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.redirect.lookup.LinkLookup;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/** The working-set preload is bounded in time, keeps what it held when stopped, and counts it. */
class WarmupPreloadTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final VirtualTimeScheduler timer = VirtualTimeScheduler.create();
    final AtomicInteger asked = new AtomicInteger();

    /** Holds one link a second and never finishes, as a Redis walk far longer than the bound. */
    final LinkLookup slow = new LinkLookup() {
        @Override
        public Mono<Found> find(String code) {
            return Mono.never();
        }

        @Override
        public Mono<Void> preloadWorkingSet(int max, AtomicInteger held) {
            asked.set(max);
            return Flux.interval(Duration.ofSeconds(1), timer)
                    .doOnNext(tick -> held.incrementAndGet())
                    .then();
        }
    };

    @Test
    void theWorkingSetPreloadStopsAtPreloadWithinKeepingWhatItHeld() {
        Warmup warmup = warmup(slow, 50_000, Duration.ofMillis(8_500));

        CompletableFuture<Void> done = warmup.preloadWorkingSet().toFuture();
        timer.advanceTimeBy(Duration.ofMillis(8_499));
        assertThat(done).as("still preloading").isNotDone();
        timer.advanceTimeBy(Duration.ofMillis(1));
        assertThat(done).as("stopped at preload-within, without an error").isCompleted();

        assertThat(asked).hasValue(50_000);
        assertThat(registry.get("shortgate.warmup.preloaded")
                        .tag("set", "working-set")
                        .counter()
                        .count())
                .isEqualTo(8);
    }

    @Test
    void noWorkingSetPreloadWhenPreloadMaxIsZero() {
        StepVerifier.create(warmup(slow, 0, Duration.ofSeconds(8)).preloadWorkingSet())
                .verifyComplete();

        assertThat(asked).hasValue(0);
    }

    @Test
    void aFailedWorkingSetPreloadLetsTheWarmUpGoOn() {
        LinkLookup failing = new LinkLookup() {
            @Override
            public Mono<Found> find(String code) {
                return Mono.never();
            }

            @Override
            public Mono<Void> preloadWorkingSet(int max, AtomicInteger held) {
                held.addAndGet(3);
                return Mono.error(new IllegalStateException("Redis went away"));
            }
        };

        StepVerifier.create(warmup(failing, 10, Duration.ofSeconds(8)).preloadWorkingSet())
                .verifyComplete();

        assertThat(registry.get("shortgate.warmup.preloaded")
                        .tag("set", "working-set")
                        .counter()
                        .count())
                .isEqualTo(3);
    }

    private Warmup warmup(LinkLookup lookup, int preloadMax, Duration preloadWithin) {
        WarmupProperties properties = new WarmupProperties(
                true,
                Duration.ofSeconds(20),
                0,
                Duration.ofSeconds(6),
                16,
                1000,
                8,
                Duration.ofSeconds(30),
                Duration.ofMinutes(10),
                preloadMax,
                preloadWithin,
                0);
        return new Warmup(
                Mono.empty(),
                HotCodes.NONE,
                lookup,
                WarmupRequests.NONE,
                properties,
                timer,
                JitActivity.UNKNOWN,
                registry);
    }
}
