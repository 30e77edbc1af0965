/**
 * Cross-pod invalidation: the {@code CacheInvalidator} writes a changed link through to Redis and publishes its
 * code on the {@code InvalidationBus}, and every pod evicts its near-cache entry.
 */
package dev.shortgate.redirect.invalidation;
