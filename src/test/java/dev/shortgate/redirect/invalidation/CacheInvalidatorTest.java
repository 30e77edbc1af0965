package dev.shortgate.redirect.invalidation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.guard.UnknownCodeGuard;
import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.redirect.lookup.RedisTier;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import reactor.test.publisher.PublisherProbe;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * A create's announcement through Redis: waited for briefly, never without bound. The invalidation channel: the near
 * cache is cleared when a subscription after a lost one is active, and only then.
 */
class CacheInvalidatorTest {

    static final Duration WAIT = Duration.ofMillis(250);
    static final Duration LOAD_DEADLINE = Duration.ofSeconds(2);

    final VirtualTimeScheduler timer = VirtualTimeScheduler.create();
    final AtomicLong nanos = new AtomicLong();
    final RedirectProperties properties = new RedirectProperties(
            new RedirectProperties.NearCache(100, Duration.ofMinutes(1), Duration.ofSeconds(5), LOAD_DEADLINE, 10),
            new RedirectProperties.Redis(
                    Duration.ofMillis(100),
                    Duration.ofMillis(500),
                    Duration.ofMillis(100),
                    Duration.ofHours(1),
                    "sg:",
                    new RedirectProperties.Redis.Repair(1, Duration.ofHours(1), Duration.ofHours(1)),
                    new RedirectProperties.Redis.Writes(Duration.ofMillis(500), LOAD_DEADLINE),
                    Duration.ofSeconds(2)),
            Duration.ofHours(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            true,
            new RedirectProperties.Guard(true, 1000, 0.01, 1, 10, Duration.ofSeconds(10)),
            200,
            Duration.ofSeconds(3));
    static final CacheInvalidator.CurrentLinks NO_ROWS = codes -> Mono.just(Map.of());
    final NearCache near = new NearCache(properties.nearCache(), nanos::get, timer, new SimpleMeterRegistry());
    final Link link = new Link(
            "abc1234", "https://example.com/", 302, false, Instant.EPOCH, null, null, false, false, null, null);

    @Test
    void createAnswersAfterTheWaitWhenRedisNeverAnswersAndTheAnnouncementIsCancelledAtItsBound() {
        PublisherProbe<Void> put = PublisherProbe.of(Mono.never());
        PublisherProbe<Void> guardAdd = PublisherProbe.of(Mono.never());
        CacheInvalidator invalidator = new CacheInvalidator(
                near,
                tier(put),
                bus(PublisherProbe.empty()),
                guard(guardAdd),
                NO_ROWS,
                properties,
                WAIT,
                timer,
                new SimpleMeterRegistry());

        StepVerifier.create(invalidator.created(link))
                .then(() -> timer.advanceTimeBy(WAIT.minusMillis(1)))
                .expectNoEvent(Duration.ZERO)
                .then(() -> timer.advanceTimeBy(Duration.ofMillis(1)))
                .expectComplete()
                .verify(Duration.ofSeconds(5));

        assertThat(near.getIfReady(link.code()))
                .as("this pod serves the new link at once")
                .isNotNull();
        assertThat(put.wasCancelled()).as("still running in the background").isFalse();
        timer.advanceTimeBy(LOAD_DEADLINE);
        assertThat(put.wasCancelled()).as("the announcement is bounded too").isTrue();
        assertThat(guardAdd.wasCancelled()).isTrue();
    }

    @Test
    void createWaitsForTheGuardAndTheMessageWhenRedisAnswers() {
        PublisherProbe<Void> put = PublisherProbe.empty();
        PublisherProbe<Void> publish = PublisherProbe.empty();
        PublisherProbe<Void> guardAdd =
                PublisherProbe.of(Mono.delay(Duration.ofMillis(10), timer).then());
        CacheInvalidator invalidator = new CacheInvalidator(
                near,
                tier(put),
                bus(publish),
                guard(guardAdd),
                NO_ROWS,
                properties,
                WAIT,
                timer,
                new SimpleMeterRegistry());

        StepVerifier.create(invalidator.created(link))
                .then(() -> timer.advanceTimeBy(Duration.ofMillis(9)))
                .expectNoEvent(Duration.ZERO)
                .then(() -> timer.advanceTimeBy(Duration.ofMillis(1)))
                .expectComplete()
                .verify(Duration.ofSeconds(5));

        guardAdd.assertWasSubscribed();
        put.assertWasSubscribed();
        publish.assertWasSubscribed();
    }

    @Test
    void importedLinksSetTheGuardAndPublishButFillNoCache() {
        PublisherProbe<Void> put = PublisherProbe.empty();
        PublisherProbe<Void> publish = PublisherProbe.empty();
        PublisherProbe<Void> guardAdd = PublisherProbe.empty();
        CacheInvalidator invalidator = new CacheInvalidator(
                near,
                tier(put),
                bus(publish),
                guard(guardAdd),
                NO_ROWS,
                properties,
                WAIT,
                timer,
                new SimpleMeterRegistry());

        near.put(link); // an entry this pod held for the code before: dropped, not refreshed
        StepVerifier.create(invalidator.importedAll(java.util.List.of(link)))
                .expectComplete()
                .verify(Duration.ofSeconds(5));

        guardAdd.assertWasSubscribed();
        publish.assertWasSubscribed();
        put.assertWasNotSubscribed();
        org.assertj.core.api.Assertions.assertThat(near.getIfPresent(link.code()))
                .isNull();
    }

    @Test
    void anAnnouncementRedisDidNotTakeIsRetriedFromTheDatabaseRowsWithoutOverwritingAndCounted() {
        AtomicInteger puts = new AtomicInteger();
        List<List<Link>> kept = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicInteger publishes = new AtomicInteger();
        Link changed = new Link(
                link.code(),
                "https://example.com/changed",
                302,
                false,
                Instant.EPOCH,
                null,
                null,
                false,
                false,
                null,
                null);
        RedisTier failingOnce = new RedisTier() {
            @Override
            public Mono<Optional<Link>> find(String code) {
                return Mono.just(Optional.empty());
            }

            @Override
            public void keep(Link link) {}

            @Override
            public Mono<Void> put(Link link) {
                puts.incrementAndGet();
                return Mono.error(new IllegalStateException("SET timed out"));
            }

            @Override
            public Mono<Void> keepAll(List<Link> links) {
                kept.add(links);
                return kept.size() < 2 ? Mono.error(new IllegalStateException("still down")) : Mono.empty();
            }

            @Override
            public Mono<Void> delete(String code) {
                return Mono.empty();
            }
        };
        InvalidationBus bus = new InvalidationBus() {
            @Override
            public Mono<Void> publish(String code) {
                publishes.incrementAndGet();
                return Mono.empty();
            }

            @Override
            public Mono<Flux<String>> invalidations() {
                return Mono.just(Flux.never());
            }
        };
        RedirectProperties retrying = new RedirectProperties(
                properties.nearCache(),
                new RedirectProperties.Redis(
                        Duration.ofMillis(100),
                        Duration.ofMillis(500),
                        Duration.ofMillis(100),
                        Duration.ofHours(1),
                        "sg:",
                        new RedirectProperties.Redis.Repair(3, Duration.ofSeconds(1), Duration.ofSeconds(1)),
                        new RedirectProperties.Redis.Writes(Duration.ofMillis(500), LOAD_DEADLINE),
                        Duration.ofSeconds(2)),
                properties.permanentMaxAge(),
                properties.retryAfter(),
                properties.dbTimeout(),
                true,
                properties.guard(),
                200,
                properties.drainTimeout());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CacheInvalidator invalidator = new CacheInvalidator(
                near,
                failingOnce,
                bus,
                guard(PublisherProbe.empty()),
                codes -> Mono.just(Map.of(link.code(), changed)), // changed on another pod meanwhile
                retrying,
                WAIT,
                timer,
                registry);

        StepVerifier.create(invalidator.created(link)).expectComplete().verify(Duration.ofSeconds(5));
        assertThat(puts).hasValue(1);
        assertThat(publishes).as("no invalidation before the link is in Redis").hasValue(0);
        assertThat(registry.get("shortgate.announcements.pending").gauge().value())
                .isEqualTo(1);

        timer.advanceTimeBy(Duration.ofSeconds(10)); // two retries: the first fails, the second takes
        assertThat(kept)
                .as("each retry writes what the database holds now, only where Redis holds nothing")
                .containsExactly(List.of(changed), List.of(changed));
        assertThat(publishes).hasValue(1);
        assertThat(registry.get("shortgate.announcements.retries")
                        .tag("result", "done")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("shortgate.announcements.pending").gauge().value())
                .isZero();
    }

    @Test
    void failedSubscriptionsClearNothingAndTheFirstActiveOneAfterThemClearsTheNearCacheOnce() {
        AtomicInteger attempts = new AtomicInteger();
        Sinks.Many<String> codes = Sinks.many().multicast().directBestEffort();
        CacheInvalidator invalidator = new CacheInvalidator(
                near,
                tier(PublisherProbe.empty()),
                channel(attempts, 2, codes.asFlux()),
                guard(PublisherProbe.empty()),
                NO_ROWS,
                properties,
                WAIT,
                timer,
                new SimpleMeterRegistry());
        near.put(link);

        invalidator.start();
        // Retries wait 200 ms, then 400 ms, each give or take half (jitter): step through them a millisecond at a time.
        for (int elapsed = 0; attempts.get() < 3; elapsed++) {
            assertThat(elapsed).as("the third attempt comes within 900 ms").isLessThanOrEqualTo(900);
            assertThat(near.getIfReady(link.code()))
                    .as("after %d refused attempt(s), the near cache is kept", attempts.get())
                    .isNotNull();
            timer.advanceTimeBy(Duration.ofMillis(1));
        }
        assertThat(near.getIfReady(link.code()))
                .as("the third attempt is subscribed: messages may have been lost before it, so it clears")
                .isNull();

        near.put(link);
        timer.advanceTimeBy(Duration.ofMinutes(1));
        assertThat(attempts).as("no attempt while subscribed").hasValue(3);
        assertThat(near.getIfReady(link.code())).isNotNull();
        codes.tryEmitNext(link.code());
        assertThat(near.getIfReady(link.code())).as("a message evicts its code").isNull();
        invalidator.stop();
    }

    @Test
    void theFirstSubscriptionClearsNothing() {
        AtomicInteger attempts = new AtomicInteger();
        CacheInvalidator invalidator = new CacheInvalidator(
                near,
                tier(PublisherProbe.empty()),
                channel(attempts, 0, Flux.never()),
                guard(PublisherProbe.empty()),
                NO_ROWS,
                properties,
                WAIT,
                timer,
                new SimpleMeterRegistry());
        near.put(link);

        invalidator.start();
        timer.advanceTimeBy(Duration.ofMinutes(1));

        assertThat(attempts).hasValue(1);
        assertThat(near.getIfReady(link.code())).isNotNull();
        invalidator.stop();
    }

    /** A channel that refuses the first {@code refusals} subscriptions, then is subscribed with {@code codes}. */
    private static InvalidationBus channel(AtomicInteger attempts, int refusals, Flux<String> codes) {
        return new InvalidationBus() {
            @Override
            public Mono<Void> publish(String code) {
                return Mono.empty();
            }

            @Override
            public Mono<Flux<String>> invalidations() {
                return Mono.defer(() -> attempts.incrementAndGet() <= refusals
                        ? Mono.error(new IllegalStateException("connection refused"))
                        : Mono.just(codes));
            }
        };
    }

    private static RedisTier tier(PublisherProbe<Void> put) {
        return new RedisTier() {
            @Override
            public Mono<Optional<Link>> find(String code) {
                return Mono.just(Optional.empty());
            }

            @Override
            public void keep(Link link) {}

            @Override
            public Mono<Void> put(Link link) {
                return put.mono();
            }

            @Override
            public Mono<Void> delete(String code) {
                return Mono.never();
            }
        };
    }

    private static InvalidationBus bus(PublisherProbe<Void> publish) {
        return new InvalidationBus() {
            @Override
            public Mono<Void> publish(String code) {
                return publish.mono();
            }

            @Override
            public Mono<Flux<String>> invalidations() {
                return Mono.just(Flux.never());
            }
        };
    }

    private static UnknownCodeGuard guard(PublisherProbe<Void> add) {
        return new UnknownCodeGuard() {
            @Override
            public Mono<Boolean> mayExist(String code) {
                return Mono.just(true);
            }

            @Override
            public Mono<Void> add(String code) {
                return add.mono();
            }

            @Override
            public boolean ready() {
                return true;
            }
        };
    }
}
