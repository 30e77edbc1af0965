package dev.shortgate.redirect.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.guard.UnknownCodeGuard;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * A starting pod's preload reads Redis in batches, one call each, looks up only the codes Redis does not hold, and
 * never overwrites what the near cache already holds; forgetting drops only the codes named.
 */
class NearCachePreloadTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<Integer> batches = new CopyOnWriteArrayList<>();
    final AtomicInteger singleReads = new AtomicInteger();
    final AtomicInteger queries = new AtomicInteger();
    final AtomicLong nanos = new AtomicLong();
    /** Redis is late once with the batch that starts with each of these codes. */
    final Set<String> lateOnce = ConcurrentHashMap.newKeySet();
    /** The codes the Redis tier's walk of its keys finds, in that order. */
    final List<String> keys = new ArrayList<>();

    final NearCache near = new NearCache(
            new RedirectProperties.NearCache(
                    10_000, Duration.ofMinutes(1), Duration.ofSeconds(5), Duration.ofSeconds(2), 100),
            nanos::get,
            VirtualTimeScheduler.create(), // the loads' deadlines, never reached here
            registry);

    /** Holds every code starting with {@code held}, with the URL {@code https://redis/<code>}. */
    final RedisTier redis = new RedisTier() {
        @Override
        public Mono<Optional<Link>> find(String code) {
            singleReads.incrementAndGet();
            return Mono.just(code.startsWith("held") ? Optional.of(link(code, "https://redis/")) : Optional.empty());
        }

        @Override
        public Mono<Map<String, Link>> findAll(List<String> codes) {
            return Mono.defer(
                    () -> { // as RedisCalls: the call is made on subscribe
                        batches.add(codes.size());
                        if (lateOnce.remove(codes.get(0))) {
                            return Mono.error(new TimeoutException("Redis was late"));
                        }
                        Map<String, Link> held = new HashMap<>();
                        codes.stream()
                                .filter(code -> code.startsWith("held"))
                                .forEach(code -> held.put(code, link(code, "https://redis/")));
                        return Mono.just(held);
                    });
        }

        @Override
        public Flux<List<String>> codes(int page) {
            List<List<String>> pages = new ArrayList<>();
            for (int i = 0; i < keys.size(); i += page) {
                pages.add(List.copyOf(keys.subList(i, Math.min(keys.size(), i + page))));
            }
            return Flux.fromIterable(pages);
        }

        @Override
        public void keep(Link link) {}

        @Override
        public Mono<Void> put(Link link) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> delete(String code) {
            return Mono.empty();
        }
    };

    final TieredLinkLookup lookup = new TieredLinkLookup(
            near,
            redis,
            UnknownCodeGuard.OFF,
            new RedirectProperties.Guard(true, 1000, 0.01, 1, 1, Duration.ofSeconds(10)),
            code -> {
                queries.incrementAndGet();
                return Mono.just(link(code, "https://db/"));
            },
            Schedulers.immediate(),
            Duration.ofSeconds(1),
            200,
            Duration.ZERO, // no hedge
            VirtualTimeScheduler.create(),
            registry);

    @Test
    void preloadReadsRedisInBatchesAndLooksUpOnlyTheCodesRedisDoesNotHold() {
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < 440; i++) {
            codes.add("held" + i);
        }
        for (int i = 0; i < 10; i++) {
            codes.add("absent" + i);
        }

        StepVerifier.create(lookup.preload(codes)).expectNext(450).verifyComplete();

        assertThat(batches).containsExactlyInAnyOrder(200, 200, 50);
        assertThat(singleReads).as("only the codes Redis did not hold").hasValue(10);
        assertThat(queries).hasValue(10);
        assertThat(codes).allSatisfy(code -> assertThat(near.getIfReady(code)).isNotNull());
    }

    @Test
    void preloadNeverOverwritesWhatTheNearCacheAlreadyHolds() {
        near.put(link("held1", "https://changed/"));

        StepVerifier.create(lookup.preload(List.of("held1", "held2")))
                .expectNext(2)
                .verifyComplete();

        assertThat(near.getIfReady("held1").link()).map(Link::url).contains("https://changed/held1");
        assertThat(near.getIfReady("held2").link()).map(Link::url).contains("https://redis/held2");
    }

    @Test
    void forgettingDropsOnlyTheCodesNamed() {
        StepVerifier.create(lookup.preload(List.of("held1", "held2")))
                .expectNext(2)
                .verifyComplete();

        lookup.forget(List.of("held1"));

        assertThat(near.getIfPresent("held1")).isNull();
        assertThat(near.getIfPresent("held2")).isNotNull();
    }

    @Test
    void workingSetPreloadHoldsWhatRedisHoldsUpToTheMaximumAndNeverAsksTheDatabase() {
        for (int i = 0; i < 3_000; i++) {
            keys.add("held" + i);
        }
        keys.add("gone1"); // a key that expired between the walk and its read
        AtomicInteger held = new AtomicInteger();

        StepVerifier.create(lookup.preloadWorkingSet(2_500, held)).verifyComplete();

        assertThat(held).hasValue(2_500);
        assertThat(queries).as("no database query").hasValue(0);
        assertThat(singleReads).as("no lookup one by one").hasValue(0);
        assertThat(near.getIfReady("held0").link()).map(Link::url).contains("https://redis/held0");
        assertThat(keys.stream().filter(code -> near.getIfPresent(code) != null))
                .as("exactly the maximum, from the first keys walked")
                .hasSize(2_500)
                .contains("held0", "held1999")
                .doesNotContain("held2999");
    }

    @Test
    void workingSetPreloadAsksAgainForABatchRedisWasLateWith() {
        for (int i = 0; i < 600; i++) {
            keys.add("held" + i);
        }
        lateOnce.add("held200"); // the second batch
        AtomicInteger held = new AtomicInteger();

        StepVerifier.create(lookup.preloadWorkingSet(10_000, held)).verifyComplete();

        assertThat(held).hasValue(600);
        assertThat(batches).hasSize(4);
        assertThat(near.getIfReady("held399")).isNotNull();
    }

    @Test
    void workingSetPreloadSkipsWhatTheNearCacheHoldsAndStopsWhenItIsFull() {
        near.put(link("held0", "https://changed/"));
        for (int i = 0; i < 12_000; i++) {
            keys.add("held" + i);
        }
        AtomicInteger held = new AtomicInteger();

        StepVerifier.create(lookup.preloadWorkingSet(100_000, held)).verifyComplete();

        assertThat(near.getIfReady("held0").link()).map(Link::url).contains("https://changed/held0");
        assertThat(held.get())
                .as("only what the near cache (10,000) has room for")
                .isEqualTo(9_999);
        assertThat(batches.stream().mapToInt(Integer::intValue).sum())
                .as("stops reading Redis soon after it is full")
                .isLessThan(11_000);
    }

    @Test
    void preloadedLinksExpireSpreadBetweenHalfTheTtlAndTheTtl() {
        for (int i = 0; i < 1_000; i++) {
            keys.add("held" + i);
        }
        StepVerifier.create(lookup.preloadWorkingSet(1_000, new AtomicInteger()))
                .verifyComplete();

        nanos.addAndGet(Duration.ofSeconds(30).toNanos() - 1);
        assertThat(keys).as("all held until half the TTL").allSatisfy(code -> assertThat(near.getIfPresent(code))
                .isNotNull());
        nanos.addAndGet(Duration.ofSeconds(15).toNanos());
        long left =
                keys.stream().filter(code -> near.getIfPresent(code) != null).count();
        assertThat(left).as("some expired, some not, at three quarters of it").isBetween(300L, 700L);
        nanos.addAndGet(Duration.ofSeconds(15).toNanos() + 2);
        assertThat(keys).as("none past the TTL").allSatisfy(code -> assertThat(near.getIfPresent(code))
                .isNull());
    }

    @Test
    void aPreloadNeverHoldsACodeInvalidatedSinceItBegan() {
        try (NearCache.Preload preload = near.preloading()) {
            near.invalidate("held1"); // changed on another pod while the preload read its old value from Redis
            near.invalidate("held2");
            near.invalidate("held2");

            assertThat(preload.hold("held1", LinkLookup.Found.of(link("held1", "https://old/"), Tier.NEAR)))
                    .isFalse();
            assertThat(preload.hold("held2", LinkLookup.Found.of(link("held2", "https://old/"), Tier.NEAR)))
                    .isFalse();
            assertThat(preload.hold("held3", LinkLookup.Found.of(link("held3", "https://redis/"), Tier.NEAR)))
                    .isTrue();
        }
        assertThat(near.getIfPresent("held1")).isNull();
        assertThat(near.getIfPresent("held2")).isNull();
        assertThat(near.getIfPresent("held3")).isNotNull();

        try (NearCache.Preload next = near.preloading()) {
            assertThat(next.hold("held1", LinkLookup.Found.of(link("held1", "https://new/"), Tier.NEAR)))
                    .as("a preload that began after the change reads the changed value")
                    .isTrue();
        }
    }

    @Test
    void aPreloadHoldsNothingAfterTheWholeNearCacheWasInvalidated() {
        try (NearCache.Preload preload = near.preloading()) {
            near.invalidateAll(); // the invalidation channel came back: messages may have been lost

            assertThat(preload.hold("held1", LinkLookup.Found.of(link("held1", "https://old/"), Tier.NEAR)))
                    .isFalse();
        }
        assertThat(near.getIfPresent("held1")).isNull();
    }

    private static Link link(String code, String base) {
        return new Link(code, base + code, 302, false, Instant.EPOCH, null, null, false, false, null, null);
    }
}
