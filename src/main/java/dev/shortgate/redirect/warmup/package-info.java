/**
 * Warm before ready: a starting pod reports ready only once it can serve at speed ({@code WarmupReadiness}, in the
 * readiness group), bounded by {@code shortgate.warmup.deadline}. {@code Warmup} opens the pools, preloads the near
 * cache with the hottest codes that {@code HotCodes} keeps in Redis, and sends the pod internal redirect requests
 * ({@code WarmupRequests}) that are neither visits nor metrics.
 */
package dev.shortgate.redirect.warmup;
