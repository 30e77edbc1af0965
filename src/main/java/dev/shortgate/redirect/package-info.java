/**
 * The redirect path: {@code GET|HEAD /{code}} on the traffic port. A request reads {@code http/RedirectHandler} (or,
 * for a near-cache hit, {@code http/FastRedirects} below Spring's dispatcher) {@code → http/Redirects →
 * lookup/LinkLookup} ({@code TieredLinkLookup: NearCache → RedisLinks → link's LinkRepository}), stopped early for
 * unknown codes by the {@code guard/}, {@code → visit's VisitRecorder}. The write side reaches the caches through
 * link's {@code LinkChanges}, which {@code invalidation/CacheInvalidator} implements and tells every pod about.
 * This package holds the settings, the wiring of the tiers, and {@code RedisCalls}, through which every Redis call
 * of the lookup, the guard and the invalidation goes: bounded, and behind one circuit breaker.
 *
 * <p>Nothing depends on this module: it offers no named interface.
 */
@ApplicationModule(
        allowedDependencies = {
            "domain :: registry",
            "link :: changes",
            "link :: domains",
            "link :: model",
            "link :: store",
            "visit :: counts",
            "visit :: recording",
            "security :: clients",
            "rules :: evaluation",
            "system :: *"
        })
package dev.shortgate.redirect;

import org.springframework.modulith.ApplicationModule;
