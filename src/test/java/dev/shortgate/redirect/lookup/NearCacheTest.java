package dev.shortgate.redirect.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.Link;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.lookup.LinkLookup.Found;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import reactor.test.publisher.PublisherProbe;
import reactor.test.scheduler.VirtualTimeScheduler;

/** The near cache's loads: deadlines, the bound on loads in flight, and the tier each request is told. */
class NearCacheTest {

    final AtomicLong nanos = new AtomicLong();
    final Ticker ticker = nanos::get;
    final VirtualTimeScheduler timer = VirtualTimeScheduler.create();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final NearCache near = new NearCache(
            new RedirectProperties.NearCache(
                    100, Duration.ofMinutes(1), Duration.ofSeconds(5), Duration.ofSeconds(2), 2),
            ticker,
            timer,
            registry);

    @Test
    void loadThatNeverAnswersFailsAtItsDeadlineIsCancelledAndLeavesTheCache() {
        PublisherProbe<Found> stuck = PublisherProbe.of(Mono.never());
        Mono<Found> first = near.get("stuck", code -> stuck.mono());
        Mono<Found> joined = near.get("stuck", code -> Mono.error(new AssertionError("a second load started")));

        timer.advanceTimeBy(Duration.ofMillis(1999));
        assertThat(near.getIfPresent("stuck")).isNotNull();
        timer.advanceTimeBy(Duration.ofMillis(1));

        StepVerifier.create(first).expectError(NearCache.DeadlineExceeded.class).verify(Duration.ofSeconds(1));
        StepVerifier.create(joined)
                .expectError(NearCache.DeadlineExceeded.class)
                .verify(Duration.ofSeconds(1));
        stuck.assertWasCancelled();
        assertThat(near.getIfPresent("stuck")).isNull();
        assertThat(registry.get("shortgate.lookups.deadline.exceeded").counter().count())
                .isEqualTo(1);
        assertThat(registry.get("shortgate.lookups.active").gauge().value()).isZero();

        StepVerifier.create(near.get("stuck", code -> Mono.just(Found.of(link(code), Tier.DB))))
                .assertNext(found -> assertThat(found.link()).contains(link("stuck")))
                .verifyComplete();
    }

    @Test
    void loadThatAnswersInTimeIsNotCancelledByItsDeadline() {
        StepVerifier.create(near.get("quick", code -> Mono.just(Found.of(link(code), Tier.REDIS))))
                .expectNextCount(1)
                .verifyComplete();
        timer.advanceTimeBy(Duration.ofSeconds(10));
        assertThat(near.getIfPresent("quick"))
                .isCompletedWithValueMatching(found -> found.link().isPresent());
        assertThat(registry.get("shortgate.lookups.deadline.exceeded").counter().count())
                .isZero();
    }

    @Test
    void requestsJoiningALoadAreToldTheTierItReachedAndLaterOnesTheNearCache() {
        Sinks.One<Found> answer = Sinks.one();
        Mono<Found> first = near.get("joined", code -> answer.asMono());
        Mono<Found> second = near.get("joined", code -> Mono.error(new AssertionError("a second load started")));
        answer.tryEmitValue(Found.of(link("joined"), Tier.DB));

        StepVerifier.create(first)
                .assertNext(found -> assertThat(found.tier()).isEqualTo(Tier.DB))
                .verifyComplete();
        StepVerifier.create(second)
                .assertNext(found -> assertThat(found.tier()).isEqualTo(Tier.DB))
                .verifyComplete();
        StepVerifier.create(near.get("joined", code -> Mono.error(new AssertionError("loaded again"))))
                .assertNext(found -> assertThat(found.tier()).isEqualTo(Tier.NEAR))
                .verifyComplete();
    }

    @Test
    void missPastTheBoundOnLoadsInFlightIsShedWhileJoiningStillWorks() {
        near.get("a", code -> Mono.never());
        near.get("b", code -> Mono.never());

        StepVerifier.create(near.get("c", code -> Mono.error(new AssertionError("load started past the bound"))))
                .expectError(NearCache.Shed.class)
                .verify(Duration.ofSeconds(1));
        assertThat(near.getIfPresent("a")).isNotDone();
        assertThat(near.getIfPresent("c")).isNull();
    }

    @Test
    void oldestLoadGaugeShowsHowLongTheOldestLoadHasBeenWaiting() {
        assertThat(registry.get("shortgate.lookups.oldest").gauge().value()).isZero();
        near.get("slow", code -> Mono.never());
        nanos.addAndGet(Duration.ofMillis(1500).toNanos());
        near.get("newer", code -> Mono.never());
        nanos.addAndGet(Duration.ofMillis(100).toNanos());

        assertThat(registry.get("shortgate.lookups.oldest").gauge().value()).isEqualTo(1.6);
        assertThat(registry.get("shortgate.lookups.active").gauge().value()).isEqualTo(2);
    }

    @Test
    void failedLoadIsNotCachedSoTheNextRequestTriesAgain() {
        StepVerifier.create(near.get("down", code -> Mono.error(new IllegalStateException("database down"))))
                .expectError(IllegalStateException.class)
                .verify(Duration.ofSeconds(1));
        StepVerifier.create(near.get("down", code -> Mono.just(Found.of(null, Tier.DB))))
                .assertNext(found -> assertThat(found.link()).isEmpty())
                .verifyComplete();
    }

    private static Link link(String code) {
        return new Link(
                code, "https://example.com/" + code, 302, false, Instant.EPOCH, null, null, false, false, null, null);
    }
}
