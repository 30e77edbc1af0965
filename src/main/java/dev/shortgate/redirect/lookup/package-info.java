/**
 * The tiered lookup: {@code TieredLinkLookup} asks the {@code NearCache} (Caffeine; coalesces misses, sheds past a
 * bound), then Redis ({@code RedisLinks}, each link encoded by {@code LinkCodec}), then the database, and writes what it
 * finds back up. A tier answers with a {@link dev.shortgate.redirect.lookup.LinkLookup.Found}, which also keeps the
 * link's prepared {@code http/RedirectAnswer}, so its headers are built once per cached link.
 */
package dev.shortgate.redirect.lookup;
