package dev.shortgate.redirect.lookup;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.guard.UnknownCodeGuard;
import dev.shortgate.redirect.lookup.LinkLookup.Found;
import io.github.bucket4j.Bucket;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Near cache, then the shared Redis tier, then the unknown-code guard, then the database; what a lower tier finds is
 * written back to the tiers above it. A Redis failure falls through to the database (the guard, kept in Redis, is
 * skipped then). A database failure is an error (the handler answers 503) and is not remembered, so the next request
 * tries again. Each answer carries the tier that produced it ({@link Found#tier()}); the near cache hands that same
 * answer to every request that joined the load, and tells later requests {@link Tier#NEAR}.
 *
 * <p>Database lookups in flight are bounded ({@code max-db-lookups}, 200 by default, ten times the connection pool):
 * past that a lookup answers 503 at once instead of queueing for a connection, so a database that stops answering
 * cannot pile requests up; below it, lookups queue briefly for a connection as they would without the bound.
 *
 * <p>A lookup that Redis has not answered within {@code hedge-after} (100 ms by default) asks the database too,
 * and the first answer wins. Redis's call goes on in the background, so its breaker still judges it (a trial call of
 * the half-open breaker that answers later than its timeout fails it: {@code RedisCalls}). A Redis that answers, but late (a slow network,
 * fault N1 of {@code .ci/run}), thus costs a lookup at most {@code hedge-after} plus the database, instead of the
 * whole wait that Redis's call is allowed while Redis keeps answering other calls. The hedge runs only while fewer
 * than half of {@code max-db-lookups} are in flight: a pod whose own queueing delays Redis (a saturated CPU) keeps
 * the other half for the lookups that must reach the database, and waits for Redis instead of loading the database
 * further.
 *
 * <p>A code the guard says was never created is answered 404 without a query, except that a few such codes a
 * second ({@code guard.verify-per-second}) are still looked up: a code that reached the database some other way
 * than a create (an import, a copy between tables) is then found, and added to the guard, instead of staying 404.
 */
public final class TieredLinkLookup implements LinkLookup {

    private static final int PRELOAD_BATCH = 200;
    private static final int PRELOAD_BATCHES_IN_FLIGHT = 4;
    private static final int PRELOAD_MISSES_IN_FLIGHT = 8;
    private static final int PRELOAD_SCAN_PAGE = 1000;

    private final NearCache near;
    private final RedisTier redis;
    private final UnknownCodeGuard guard;
    private final Bucket verifications;
    private final Database database;
    private final Scheduler dbScheduler;
    private final Duration dbTimeout;
    private final int maxDbLookups;
    private final Duration hedgeAfter;
    private final Scheduler timer;
    private final AtomicInteger dbLookups = new AtomicInteger();
    private final Counter dbHits;
    private final Counter dbMisses;
    private final Counter dbErrors;
    private final Counter guardRejected;
    private final Counter guardHealed;
    private final Counter hedges;

    public TieredLinkLookup(
            NearCache near,
            RedisTier redis,
            UnknownCodeGuard guard,
            RedirectProperties.Guard guarding,
            Database database,
            Scheduler dbScheduler,
            Duration dbTimeout,
            int maxDbLookups,
            Duration hedgeAfter,
            Scheduler timer,
            MeterRegistry registry) {
        this.near = near;
        this.redis = redis;
        this.guard = guard;
        this.verifications = Bucket.builder()
                .addLimit(limit -> limit.capacity(guarding.verifyBurst())
                        .refillGreedy(guarding.verifyPerSecond(), Duration.ofSeconds(1)))
                .build();
        this.guardRejected = Counter.builder("shortgate.guard.rejected")
                .description("Lookups the unknown-code guard answered 404 without a database query")
                .register(registry);
        this.guardHealed = Counter.builder("shortgate.guard.healed")
                .description("Codes the database found that the unknown-code guard did not hold (now added)")
                .register(registry);
        Gauge.builder("shortgate.guard.ready", guard, g -> g.ready() ? 1 : 0)
                .description("1 when the unknown-code guard is built and readable, 0 while every code gets through")
                .register(registry);
        this.database = database;
        this.dbScheduler = dbScheduler;
        this.dbTimeout = dbTimeout;
        this.maxDbLookups = maxDbLookups;
        this.hedgeAfter = redis == RedisTier.NONE || hedgeAfter.isZero() ? null : hedgeAfter;
        this.timer = timer;
        this.hedges = Counter.builder("shortgate.lookups.hedged")
                .description("Lookups that asked the database because Redis had not answered within hedge-after")
                .register(registry);
        this.dbHits = lookups(registry, "db", "hit");
        this.dbMisses = lookups(registry, "db", "miss");
        this.dbErrors = lookups(registry, "db", "error");
    }

    /** {@code shortgate.lookups}: lookups that fell through the near cache, by the tier they reached. */
    static Counter lookups(MeterRegistry registry, String tier, String result) {
        return Counter.builder("shortgate.lookups")
                .description("Lookups that fell through the near cache to a lower tier, by tier and result")
                .tag("tier", tier)
                .tag("result", result)
                .register(registry);
    }

    /** The database's side of a lookup: the link stored under a code, or empty when there is none. */
    @FunctionalInterface
    public interface Database {
        Mono<Link> findByCode(String code);
    }

    @Override
    public Mono<Found> find(String code) {
        return near.get(code, this::load);
    }

    /**
     * Reads the codes from Redis in batches of {@value #PRELOAD_BATCH} (one {@code MGET} each, a few in flight) and
     * puts what it holds into the near cache; codes Redis holds nothing for, or a batch Redis could not answer, are
     * looked up one by one as any miss, a few at a time. One lookup per code would each wait on Redis, and on a
     * cold pod a tenth of them passed {@code hedge-after} and asked the database too.
     */
    @Override
    public Mono<Integer> preload(List<String> codes) {
        return Flux.using(near::preloading, preload -> Flux.fromIterable(codes)
                        .buffer(PRELOAD_BATCH)
                        .flatMap(
                                batch -> redis.findAll(batch)
                                        .onErrorResume(error -> Mono.just(Map.of()))
                                        .flatMapMany(held -> {
                                            held.forEach((code, link) -> preload.hold(code, Found.of(link, Tier.NEAR)));
                                            return Flux.fromIterable(batch)
                                                    .filter(code -> !held.containsKey(code))
                                                    .flatMap(
                                                            code -> find(code).onErrorResume(error -> Mono.empty()),
                                                            PRELOAD_MISSES_IN_FLIGHT)
                                                    .count()
                                                    .map(looked -> (int) (held.size() + looked));
                                        }),
                                PRELOAD_BATCHES_IN_FLIGHT))
                .reduce(0, Integer::sum);
    }

    /**
     * Walks the codes Redis holds ({@link RedisTier#codes}) and puts their links into the near cache, in batches of
     * {@value #PRELOAD_BATCH} read with one {@code MGET} each, a few in flight, until {@code max} codes are held or
     * the near cache is full; codes it already holds are not read. Only Redis is asked: a code Redis no longer
     * holds, or a batch it could not answer, is skipped, never looked up in the database. Each link held is counted
     * on {@code held} as it is held, so a caller that stops the walk early still knows how far it got.
     */
    @Override
    public Mono<Void> preloadWorkingSet(int max, AtomicInteger held) {
        if (max <= 0) {
            return Mono.empty();
        }
        return Flux.using(near::preloading, preload -> redis.codes(PRELOAD_SCAN_PAGE)
                        .concatMapIterable(page -> page)
                        .filter(code -> near.getIfPresent(code) == null)
                        .takeWhile(code -> held.get() < max && preload.room() > 0)
                        .buffer(PRELOAD_BATCH)
                        .flatMap(
                                batch -> Mono.defer(() -> redis.findAll(batch))
                                        .retry(1) // late once on a busy machine: 200 links are worth asking again
                                        .onErrorResume(error -> Mono.just(Map.of()))
                                        .doOnNext(links -> links.forEach((code, link) -> {
                                            if (held.get() < max && preload.hold(code, Found.of(link, Tier.NEAR))) {
                                                held.incrementAndGet();
                                            }
                                        })),
                                PRELOAD_BATCHES_IN_FLIGHT))
                .then();
    }

    @Override
    public void forget(Collection<String> codes) {
        codes.forEach(near::invalidate);
    }

    @Override
    public List<String> held(int max) {
        return near.heldCodes(max);
    }

    /**
     * Redis first; what it says picks the next step: its link, or (when it holds nothing) the guard and then the
     * database, or (when it cannot answer) the database alone. What the database says is kept in Redis. When Redis
     * is late, the database is asked at {@code hedge-after}, and whichever answers first wins (see the class
     * comment); the database is then asked once for both.
     */
    private Mono<Found> load(String code) {
        if (hedgeAfter == null) {
            return viaRedis(redis.find(code), code, Mono.defer(() -> keptInRedis(fromDatabase(code))));
        }
        Mono<Found> database = Mono.defer(() -> keptInRedis(fromDatabase(code))).cache();
        // Subscribed here, so the hedge winning cancels only the wait for it, not the call: the breaker judges it.
        Mono<Optional<Link>> answer = redis.find(code).cache();
        answer.subscribe(null, error -> {});
        Mono<Found> hedge = Mono.delay(hedgeAfter, timer)
                .flatMap(tick -> {
                    if (dbLookups.get() >= maxDbLookups / 2) {
                        return Mono.<Found>never(); // keep the database's capacity for lookups that must reach it
                    }
                    hedges.increment();
                    return database;
                })
                .onErrorResume(error -> Mono.never()); // the database's error is the Redis path's to report
        return Mono.firstWithSignal(viaRedis(answer, code, database), hedge);
    }

    private Mono<Found> viaRedis(Mono<Optional<Link>> answer, String code, Mono<Found> database) {
        return answer.map(held -> held.map(link -> Mono.just(Found.of(link, Tier.REDIS)))
                        .orElseGet(() -> guarded(code, database)))
                .onErrorResume(unanswered -> Mono.just(database))
                .flatMap(next -> next);
    }

    private Mono<Found> keptInRedis(Mono<Found> below) {
        return below.doOnNext(found -> found.link().ifPresent(redis::keep));
    }

    private Mono<Found> guarded(String code, Mono<Found> database) {
        return guard.mayExist(code).flatMap(mayExist -> {
            if (mayExist) {
                return database;
            }
            if (!verifications.tryConsume(1)) {
                guardRejected.increment();
                return Mono.just(Found.of(null, Tier.GUARD));
            }
            return database.doOnNext(found -> found.link().ifPresent(link -> {
                guardHealed.increment();
                guard.add(code).subscribe(null, error -> {}); // best effort: the next verification tries again
            }));
        });
    }

    private Mono<Found> fromDatabase(String code) {
        if (dbLookups.incrementAndGet() > maxDbLookups) {
            dbLookups.decrementAndGet();
            return Mono.error(NearCache.Shed.INSTANCE); // the pool is saturated: answer now rather than queue behind it
        }
        return database.findByCode(code)
                .subscribeOn(dbScheduler)
                .timeout(dbTimeout)
                .map(link -> Found.of(link, Tier.DB))
                .defaultIfEmpty(Found.of(null, Tier.DB))
                .doOnNext(found -> (found.link().isPresent() ? dbHits : dbMisses).increment())
                .doOnError(error -> dbErrors.increment())
                .doFinally(signal -> dbLookups.decrementAndGet());
    }
}
