/**
 * The tiered lookup: {@code TieredLinkLookup} asks the {@code NearCache} (Caffeine; coalesces misses, sheds past a
 * bound), then Redis ({@code RedisLinks}, each link encoded by {@code LinkCodec}, every call bounded and behind a
 * breaker in {@code RedisCalls}), then the database, and writes what it finds back up.
 */
package dev.shortgate.redirect.lookup;
