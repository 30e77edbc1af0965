package dev.shortgate.redirect.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.guard.UnknownCodeGuard;
import dev.shortgate.redirect.lookup.LinkLookup.Found;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * A Redis that answers, but late (fault N1: 200 ms away), costs a lookup {@code hedge-after} plus the database, not
 * Redis's whole delay; Redis's call still runs to its end, so the breaker judges it. Virtual time throughout.
 */
class RedisHedgeTest {

    static final Duration HEDGE_AFTER = Duration.ofMillis(100);
    static final Duration REDIS_DELAY = Duration.ofMillis(240);

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final VirtualTimeScheduler timer = VirtualTimeScheduler.create();
    final AtomicInteger queries = new AtomicInteger();
    final AtomicInteger redisAnswers = new AtomicInteger();
    final List<String> keptInRedis = new CopyOnWriteArrayList<>();
    final Sinks.One<Link> stuckRow = Sinks.one();

    /** Holds every code except {@code not-in-redis-*}, each after {@link #REDIS_DELAY}. */
    final RedisTier lateRedis = new RedisTier() {
        @Override
        public Mono<Optional<Link>> find(String code) {
            return Mono.delay(REDIS_DELAY, timer)
                    .map(tick -> code.startsWith("not-in-redis") ? Optional.<Link>empty() : Optional.of(link(code)))
                    .doOnNext(answer -> redisAnswers.incrementAndGet());
        }

        @Override
        public void keep(Link link) {
            keptInRedis.add(link.code());
        }

        @Override
        public Mono<Void> put(Link link) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> delete(String code) {
            return Mono.empty();
        }
    };

    @Test
    void lateRedisIsOvertakenByTheDatabaseAtHedgeAfterAndStillRunsToItsEnd() {
        TieredLinkLookup lookup = lookup(Duration.ofMillis(100), 200, code -> {
            queries.incrementAndGet();
            return Mono.just(link(code));
        });

        AtomicReference<Found> answered = new AtomicReference<>();
        lookup.find("late").subscribe(answered::set);
        timer.advanceTimeBy(HEDGE_AFTER.minusMillis(1));
        assertThat(answered).hasNullValue();
        timer.advanceTimeBy(Duration.ofMillis(1));

        assertThat(answered.get().tier()).isEqualTo(Tier.DB);
        assertThat(answered.get().link()).map(Link::code).contains("late");
        assertThat(queries).hasValue(1);
        assertThat(registry.counter("shortgate.lookups.hedged").count()).isEqualTo(1);
        assertThat(redisAnswers).as("Redis's call goes on after the hedge won").hasValue(0);
        timer.advanceTimeBy(REDIS_DELAY);
        assertThat(redisAnswers).as("and ends, for the breaker to judge").hasValue(1);
    }

    @Test
    void redisAnsweringBeforeHedgeAfterNeverTouchesTheDatabase() {
        TieredLinkLookup lookup = lookup(Duration.ofMillis(300), 200, code -> {
            queries.incrementAndGet();
            return Mono.just(link(code));
        });

        StepVerifier.withVirtualTime(() -> lookup.find("prompt"), () -> timer, Long.MAX_VALUE)
                .expectSubscription()
                .thenAwait(REDIS_DELAY)
                .assertNext(found -> assertThat(found.tier()).isEqualTo(Tier.REDIS))
                .verifyComplete();
        timer.advanceTimeBy(Duration.ofSeconds(1));

        assertThat(queries).hasValue(0);
        assertThat(registry.counter("shortgate.lookups.hedged").count()).isZero();
    }

    @Test
    void aCodeRedisDoesNotHoldAsksTheDatabaseOnceEvenWhenTheHedgeAskedFirst() {
        Sinks.One<Link> row = Sinks.one();
        TieredLinkLookup lookup = lookup(Duration.ofMillis(100), 200, code -> {
            queries.incrementAndGet();
            return row.asMono();
        });

        StepVerifier.withVirtualTime(() -> lookup.find("not-in-redis-1"), () -> timer, Long.MAX_VALUE)
                .expectSubscription()
                .thenAwait(REDIS_DELAY.plusMillis(10)) // the hedge asked at 100 ms; Redis said "not held" at 240 ms
                .then(() -> assertThat(queries)
                        .as("one query for the hedge and the fall-through")
                        .hasValue(1))
                .then(() -> row.tryEmitValue(link("not-in-redis-1")))
                .assertNext(found -> assertThat(found.tier()).isEqualTo(Tier.DB))
                .verifyComplete();

        assertThat(queries).hasValue(1);
        assertThat(keptInRedis).containsExactly("not-in-redis-1");
    }

    @Test
    void noHedgeWhileHalfTheDatabaseLookupsAreInFlight() {
        TieredLinkLookup lookup = lookup(Duration.ofMillis(100), 2, code -> {
            queries.incrementAndGet();
            return code.startsWith("not-in-redis") ? stuckRow.asMono() : Mono.just(link(code));
        });
        // One lookup holds a database query (Redis does not hold its code): that is half of max-db-lookups (2).
        lookup.find("not-in-redis-stuck").subscribe(null, error -> {});
        timer.advanceTimeBy(REDIS_DELAY);
        assertThat(queries).hasValue(1);

        StepVerifier.withVirtualTime(() -> lookup.find("late"), () -> timer, Long.MAX_VALUE)
                .expectSubscription()
                .expectNoEvent(REDIS_DELAY.minusMillis(1))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(found -> assertThat(found.tier()).isEqualTo(Tier.REDIS))
                .verifyComplete();

        assertThat(queries).as("the late lookup waited for Redis").hasValue(1);
        assertThat(registry.counter("shortgate.lookups.hedged").count()).isEqualTo(1);
    }

    private TieredLinkLookup lookup(Duration hedgeAfter, int maxDbLookups, TieredLinkLookup.Database database) {
        RedirectProperties.NearCache nearCache = new RedirectProperties.NearCache(
                100, Duration.ofMinutes(1), Duration.ofSeconds(5), Duration.ofSeconds(2), 10);
        AtomicLong nanos = new AtomicLong();
        return new TieredLinkLookup(
                new NearCache(nearCache, nanos::get, timer, registry),
                lateRedis,
                UnknownCodeGuard.OFF,
                new RedirectProperties.Guard(true, 1000, 0.01, 1, 1, Duration.ofSeconds(10)),
                database,
                Schedulers.immediate(),
                Duration.ofSeconds(1),
                maxDbLookups,
                hedgeAfter,
                timer,
                registry);
    }

    private static Link link(String code) {
        return new Link(
                code, "https://example.com/" + code, 302, false, Instant.EPOCH, null, null, false, false, null, null);
    }
}
