package dev.shortgate.redirect;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRepository;
import dev.shortgate.system.BlockingDrivers;
import io.r2dbc.spi.ConnectionFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Near cache, then Redis, then the database. What a lower tier finds is written back to the tiers above it.
 * A Redis failure falls through to the database; a database failure is an error (the handler answers 503),
 * and it is not remembered, so the next request tries again.
 */
@Component
class TieredLinkLookup implements LinkLookup {

    private static final Logger log = LoggerFactory.getLogger(TieredLinkLookup.class);

    private final NearCache near;
    private final RedisLinks redis; // null when the Redis tier is off
    private final LinkRepository database;
    private final Duration dbTimeout;
    private final Scheduler dbScheduler;
    private final Counter redisHits;
    private final Counter redisMisses;
    private final Counter redisErrors;
    private final Counter dbHits;
    private final Counter dbMisses;
    private final Counter dbErrors;

    TieredLinkLookup(NearCache near, ObjectProvider<RedisLinks> redis, LinkRepository database,
                     RedirectProperties properties, ConnectionFactory connectionFactory, MeterRegistry registry) {
        this.near = near;
        this.dbScheduler = BlockingDrivers.schedulerFor(connectionFactory);
        this.dbTimeout = properties.dbTimeout();
        this.redis = redis.getIfAvailable();
        this.database = database;
        this.redisHits = lookups(registry, "redis", "hit");
        this.redisMisses = lookups(registry, "redis", "miss");
        this.redisErrors = lookups(registry, "redis", "error");
        this.dbHits = lookups(registry, "db", "hit");
        this.dbMisses = lookups(registry, "db", "miss");
        this.dbErrors = lookups(registry, "db", "error");
    }

    private static Counter lookups(MeterRegistry registry, String tier, String result) {
        return Counter.builder("shortgate.lookups")
                .description("Lookups that fell through the near cache to a lower tier, by tier and result")
                .tag("tier", tier)
                .tag("result", result)
                .register(registry);
    }

    @Override
    public Mono<Found> find(String code) {
        // One cache access per request, so Caffeine's hit/miss stats count each request once.
        Tier[] source = {Tier.NEAR}; // stays NEAR on a hit, and when joining another request's load in flight
        boolean[] loaded = {false};
        Function<String, CompletableFuture<Optional<Link>>> loader = key -> {
            loaded[0] = true;
            return loadBelow(key).doOnNext(found -> source[0] = found.tier()).map(Found::link).toFuture();
        };
        CompletableFuture<Optional<Link>> entry = near.get(code, loader);
        if (!loaded[0] && entry.isCompletedExceptionally()) {
            near.remove(code, entry); // a failed load is never an answer; Caffeine drops it too, but lazily
            entry = near.get(code, loader);
        }
        if (entry.isDone() && !entry.isCompletedExceptionally()) {
            return Mono.just(new Found(entry.join(), source[0]));
        }
        CompletableFuture<Optional<Link>> pending = entry;
        return Mono.fromFuture(pending, true)
                .doOnError(e -> near.remove(code, pending))
                .map(link -> new Found(link, source[0]));
    }

    private Mono<Found> loadBelow(String code) {
        Mono<Found> lookup = redis == null ? fromDatabase(code) : fromRedisThenDatabase(code);
        return lookup.onErrorMap(DatabaseFailure.class, Throwable::getCause);
    }

    private Mono<Found> fromRedisThenDatabase(String code) {
        return redis.get(code)
                .doOnNext(link -> redisHits.increment())
                .map(link -> new Found(Optional.of(link), Tier.REDIS))
                .switchIfEmpty(Mono.defer(() -> {
                    redisMisses.increment();
                    return fromDatabase(code);
                }))
                .onErrorResume(e -> !(e instanceof DatabaseFailure), e -> {
                    redisErrors.increment();
                    log.debug("Redis lookup failed, falling through to the database: {}", e.toString());
                    return fromDatabase(code);
                });
    }

    private Mono<Found> fromDatabase(String code) {
        return database.findByCode(code)
                .subscribeOn(dbScheduler)
                .timeout(dbTimeout)
                .flatMap(link -> writeBack(link).thenReturn(link))
                .map(link -> {
                    dbHits.increment();
                    return new Found(Optional.of(link), Tier.DB);
                })
                .switchIfEmpty(Mono.fromSupplier(() -> {
                    dbMisses.increment();
                    return new Found(Optional.empty(), Tier.DB);
                }))
                .onErrorMap(e -> !(e instanceof DatabaseFailure), e -> {
                    dbErrors.increment();
                    return new DatabaseFailure(e);
                });
    }

    private Mono<Void> writeBack(Link link) {
        if (redis == null) {
            return Mono.empty();
        }
        return redis.putIfAbsent(link).onErrorResume(e -> Mono.empty());
    }

    /** Marks a database error so the Redis fall-through does not swallow it. */
    private static final class DatabaseFailure extends RuntimeException {
        DatabaseFailure(Throwable cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }
}
