package dev.shortgate.redirect;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.Link;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import org.springframework.stereotype.Component;

/**
 * The in-process tier: a bounded Caffeine {@link AsyncCache} of code to link. An empty {@link Optional} is a
 * negative entry (the code is unknown) and lives for the shorter negative TTL. Concurrent misses for one code
 * share one load. A load that fails is not cached, so a database outage is never remembered as "unknown".
 */
@Component
class NearCache {

    private final AsyncCache<String, Optional<Link>> cache;

    NearCache(RedirectProperties properties, Ticker ticker, MeterRegistry registry) {
        RedirectProperties.NearCache settings = properties.nearCache();
        this.cache = Caffeine.newBuilder()
                .maximumSize(settings.maxSize())
                .expireAfter(Expiry.<String, Optional<Link>>writing((code, link) ->
                        link.isPresent() ? settings.ttl() : settings.negativeTtl()))
                .ticker(ticker)
                .executor(Runnable::run)
                .recordStats()
                .buildAsync();
        CaffeineCacheMetrics.monitor(registry, cache, "links");
    }

    /** The entry for this code, possibly a load still in flight, or {@code null}. */
    CompletableFuture<Optional<Link>> getIfPresent(String code) {
        return cache.getIfPresent(code);
    }

    /** The entry for this code, calling {@code loader} only when there is none and no load is in flight. */
    CompletableFuture<Optional<Link>> get(String code, Function<String, CompletableFuture<Optional<Link>>> loader) {
        return cache.get(code, (key, executor) -> loader.apply(key));
    }

    void put(Link link) {
        cache.put(link.code(), CompletableFuture.completedFuture(Optional.of(link)));
    }

    /** Removes this exact entry (for example a failed load), leaving any newer one in place. */
    void remove(String code, CompletableFuture<Optional<Link>> entry) {
        cache.asMap().remove(code, entry);
    }

    void invalidate(String code) {
        cache.synchronous().invalidate(code);
    }

    void invalidateAll() {
        cache.synchronous().invalidateAll();
    }

}
