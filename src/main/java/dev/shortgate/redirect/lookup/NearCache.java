package dev.shortgate.redirect.lookup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.stats.ConcurrentStatsCounter;
import com.github.benmanes.caffeine.cache.stats.StatsCounter;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.link.Link;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.lookup.LinkLookup.Found;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The in-process tier: a bounded Caffeine {@link AsyncCache} of code to {@link Found}. An entry with no link is a
 * negative entry (the code is unknown) and lives for the shorter negative TTL. Concurrent misses for one code
 * share one load, and a load that fails is not cached, so a database outage is never remembered as "unknown".
 *
 * <p>Every load has an outer deadline, armed before the load is subscribed and run on a timer of its own, so it
 * holds whatever happens below (a lost signal, a blocked thread, an operator whose own timeout never started):
 * on the deadline the load is cancelled, its pending entry fails and leaves the cache, every request waiting on it
 * gets {@link DeadlineExceeded}, a warning names the code, and the next request starts a fresh load. Loads in
 * flight are bounded: past {@code max-loads} a miss fails at once with {@link Shed} instead of queueing.
 */
public final class NearCache {

    private static final Logger log = LoggerFactory.getLogger(NearCache.class);

    private final AsyncCache<String, Found> cache;
    private final Policy.VarExpiration<String, Found> expiry;
    private final long maxSize;
    private final Duration ttl;
    private final Ticker ticker;
    private final Scheduler timer;
    private final Duration deadline;
    private final int maxLoads;
    private final Map<String, Long> loading = new ConcurrentHashMap<>(); // code -> start, in ticker nanos
    private final Counter deadlinesExceeded;
    /** Caffeine's counters, also fed by hand: peeking (which the fast path does) records nothing by itself. */
    private final StatsCounter stats = new ConcurrentStatsCounter();
    /** Invalidations so far, numbered; a preload skips a code invalidated since it began (see {@link Preload}). */
    private final AtomicLong invalidations = new AtomicLong();

    private final AtomicInteger preloads = new AtomicInteger(); // running now
    private final Map<String, Long> invalidatedWhilePreloading = new ConcurrentHashMap<>(); // code -> its number
    private volatile long allInvalidatedAt;

    public NearCache(RedirectProperties.NearCache settings, Ticker ticker, Scheduler timer, MeterRegistry registry) {
        this.ticker = ticker;
        this.timer = timer;
        this.deadline = settings.loadDeadline();
        this.maxLoads = settings.maxLoads();
        this.maxSize = settings.maxSize();
        this.ttl = settings.ttl();
        this.cache = Caffeine.newBuilder()
                .maximumSize(settings.maxSize())
                .expireAfter(Expiry.<String, Found>writing(
                        (code, found) -> found.link().isPresent() ? settings.ttl() : settings.negativeTtl()))
                .ticker(ticker)
                .executor(Runnable::run)
                .recordStats(() -> stats)
                .buildAsync();
        this.expiry = cache.synchronous().policy().expireVariably().orElseThrow();
        CaffeineCacheMetrics.monitor(registry, cache, "links");
        Gauge.builder("shortgate.lookups.active", loading, Map::size)
                .description("Lookups below the near cache in flight now")
                .register(registry);
        Gauge.builder("shortgate.lookups.oldest", this, NearCache::oldestLoadSeconds)
                .description("Age of the oldest lookup below the near cache still in flight, 0 when none")
                .baseUnit("seconds")
                .register(registry);
        this.deadlinesExceeded = Counter.builder("shortgate.lookups.deadline.exceeded")
                .description("Lookups below the near cache cancelled at their outer deadline")
                .register(registry);
    }

    /** The entry for this code, possibly a load still in flight, or {@code null}; counts nothing. */
    public CompletableFuture<Found> getIfPresent(String code) {
        return cache.asMap().get(code);
    }

    /**
     * The entry for this code if it is here and loaded, counted as a hit; otherwise {@code null}, counted as
     * nothing (whoever then calls {@link #get} counts the request).
     */
    public Found getIfReady(String code) {
        CompletableFuture<Found> entry = cache.asMap().get(code);
        if (entry == null || !entry.isDone() || entry.isCompletedExceptionally()) {
            return null;
        }
        stats.recordHits(1);
        return entry.join().near();
    }

    /**
     * The answer for this code: the cached entry (tier {@link Tier#NEAR}), the load in flight for it, or a new
     * load by {@code loader}. Fails with {@link Shed} when a new load is needed and too many are in flight.
     */
    Mono<Found> get(String code, Function<String, Mono<Found>> loader) {
        CompletableFuture<Found> entry = cache.asMap().get(code);
        if (entry != null && entry.isCompletedExceptionally()) {
            cache.asMap().remove(code, entry); // a failed load is never an answer; Caffeine drops it too, but lazily
            entry = null;
        }
        if (entry == null) {
            if (loading.size() >= maxLoads) {
                return Mono.error(Shed.INSTANCE);
            }
            entry = cache.get(code, (key, executor) -> load(key, loader)); // counts the miss (or a racing hit)
        } else {
            stats.recordHits(1);
            if (entry.isDone()) {
                return Mono.just(entry.join().near());
            }
        }
        CompletableFuture<Found> pending = entry;
        // A failed load leaves at once (also one that failed before Caffeine had stored it, which Caffeine keeps).
        return Mono.fromFuture(pending, true).doOnError(error -> cache.asMap().remove(code, pending));
    }

    private CompletableFuture<Found> load(String code, Function<String, Mono<Found>> loader) {
        Load load = new Load(code);
        load.deadline = timer.schedule(load, deadline.toNanos(), TimeUnit.NANOSECONDS); // armed before subscribing
        load.subscription = loader.apply(code)
                .subscribe(found -> load.future.complete(found), load.future::completeExceptionally, () -> {
                    if (!load.future.isDone()) { // built only when it is true: a stack trace per lookup costs
                        load.future.completeExceptionally(new IllegalStateException("lookup of a code ended empty"));
                    }
                });
        return load.future;
    }

    /** One load in flight: its result, its subscription and its deadline. */
    private final class Load implements Runnable {

        final String code;
        final long started = ticker.read();
        final CompletableFuture<Found> future = new CompletableFuture<>();
        volatile Disposable subscription;
        volatile Disposable deadline;

        Load(String code) {
            this.code = code;
            loading.put(code, started);
            future.whenComplete((found, error) -> {
                loading.remove(code, started);
                Disposable timer = deadline;
                if (timer != null) {
                    timer.dispose();
                }
            });
        }

        /** The deadline passed: fail the entry (Caffeine then drops it) and cancel whatever is still running. */
        @Override
        public void run() {
            if (future.completeExceptionally(new DeadlineExceeded(NearCache.this.deadline))) {
                cache.asMap().remove(code, future);
                Disposable running = subscription;
                if (running != null) {
                    running.dispose();
                }
                deadlinesExceeded.increment();
                log.warn(
                        "Lookup of code {} passed its {} deadline; cancelled it, the next request starts afresh",
                        code,
                        NearCache.this.deadline);
            }
        }
    }

    /**
     * Starts a preload (a starting pod's warm-up): links read from a lower tier are held through the returned
     * {@link Preload} until it is closed. Close it when the preload ends.
     */
    Preload preloading() {
        preloads.incrementAndGet(); // before reading the number: an invalidation after it is then remembered
        return new Preload(invalidations.get());
    }

    /**
     * One preload. It holds a link only where the near cache has no entry (nor a load in flight), so it never
     * overwrites what a lookup or a change put there, and never a code invalidated since the preload began: the value
     * it read from Redis may predate that change. Each link it holds expires at a random point between half the TTL
     * and the TTL, so a pod that preloaded its whole working set at once does not miss it all at once a TTL later.
     * Holds nothing past the near cache's maximum size, which the preload could only evict from again.
     */
    final class Preload implements AutoCloseable {

        private final long since;
        private boolean closed;

        private Preload(long since) {
            this.since = since;
        }

        /** How many more entries the near cache has room for now. */
        long room() {
            return Math.max(0, maxSize - cache.synchronous().estimatedSize());
        }

        /** Holds this link under {@code code} unless the near cache holds the code or it changed since; whether held. */
        boolean hold(String code, Found found) {
            if (changedSince(code) || room() == 0) {
                return false;
            }
            long nanos = ttl.toNanos();
            Duration expiresIn =
                    Duration.ofNanos(nanos / 2 + ThreadLocalRandom.current().nextLong(nanos / 2 + 1));
            if (expiry.putIfAbsent(code, found, expiresIn) != null) {
                return false;
            }
            if (changedSince(code)) { // invalidated between the check and the put: the put must not outlive it
                CompletableFuture<Found> held = cache.asMap().get(code);
                if (held != null && held.isDone() && !held.isCompletedExceptionally() && held.join() == found) {
                    cache.asMap().remove(code, held);
                }
                return false;
            }
            return true;
        }

        private boolean changedSince(String code) {
            Long at = invalidatedWhilePreloading.get(code);
            return allInvalidatedAt > since || at != null && at > since;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                if (preloads.decrementAndGet() == 0) {
                    invalidatedWhilePreloading.clear();
                }
            }
        }
    }

    /**
     * Up to {@code max} codes of the default domain whose links are held and loaded now, whichever come first; for
     * a starting pod's warm-up requests, which should hit the near cache as its traffic will.
     */
    public List<String> heldCodes(int max) {
        List<String> codes = new ArrayList<>(Math.max(0, Math.min(max, 1024)));
        for (var entry : cache.asMap().entrySet()) {
            if (codes.size() >= max) {
                break;
            }
            CompletableFuture<Found> found = entry.getValue();
            if (entry.getKey().indexOf(DomainCodes.SEPARATOR) < 0
                    && found.isDone()
                    && !found.isCompletedExceptionally()
                    && found.join().link().isPresent()) {
                codes.add(entry.getKey());
            }
        }
        return codes;
    }

    public void put(Link link) {
        cache.put(link.code(), CompletableFuture.completedFuture(Found.of(link, Tier.NEAR)));
    }

    public void invalidate(String code) {
        long number = invalidations.incrementAndGet();
        if (preloads.get() > 0) {
            invalidatedWhilePreloading.merge(code, number, Math::max);
        }
        cache.synchronous().invalidate(code);
    }

    public void invalidateAll() {
        allInvalidatedAt = invalidations.incrementAndGet();
        cache.synchronous().invalidateAll();
    }

    private double oldestLoadSeconds() {
        long now = ticker.read();
        long oldest = 0;
        for (long started : loading.values()) {
            oldest = Math.max(oldest, now - started);
        }
        return oldest / 1e9;
    }

    /** Too many lookups in flight on this pod: the request is answered 503 at once rather than queued. */
    public static final class Shed extends RuntimeException {
        static final Shed INSTANCE = new Shed();

        private Shed() {
            super("too many lookups in flight", null, false, false);
        }
    }

    /** A lookup did not finish within its outer deadline (a timeout, so Caffeine does not log it as a failure). */
    static final class DeadlineExceeded extends TimeoutException {
        DeadlineExceeded(Duration deadline) {
            super("lookup passed its " + deadline + " deadline");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // raised by a timer: its stack says nothing
        }
    }
}
