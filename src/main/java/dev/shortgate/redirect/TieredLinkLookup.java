package dev.shortgate.redirect;

import java.time.Duration;

import dev.shortgate.link.LinkRepository;
import dev.shortgate.redirect.LinkLookup.Found;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Near cache, then the shared Redis tier, then the database; what a lower tier finds is written back to the tiers
 * above it. A Redis failure falls through to the database. A database failure is an error (the handler answers
 * 503) and is not remembered, so the next request tries again.
 */
final class TieredLinkLookup implements LinkLookup {

    private final NearCache near;
    private final RedisTier redis;
    private final LinkRepository database;
    private final Scheduler dbScheduler;
    private final Duration dbTimeout;
    private final Counter dbHits;
    private final Counter dbMisses;
    private final Counter dbErrors;

    TieredLinkLookup(NearCache near, RedisTier redis, LinkRepository database, Scheduler dbScheduler,
                     Duration dbTimeout, MeterRegistry registry) {
        this.near = near;
        this.redis = redis;
        this.database = database;
        this.dbScheduler = dbScheduler;
        this.dbTimeout = dbTimeout;
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

    @Override
    public Mono<Found> find(String code) {
        return near.get(code, this::load);
    }

    private Mono<Found> load(String code) {
        return redis.find(code, () -> fromDatabase(code));
    }

    private Mono<Found> fromDatabase(String code) {
        return database.findByCode(code)
                .subscribeOn(dbScheduler)
                .timeout(dbTimeout)
                .map(link -> Found.of(link, Tier.DB))
                .defaultIfEmpty(Found.of(null, Tier.DB))
                .doOnNext(found -> (found.link().isPresent() ? dbHits : dbMisses).increment())
                .doOnError(error -> dbErrors.increment());
    }
}
