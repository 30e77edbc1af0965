/**
 * Warm before ready: a starting pod reports ready only once it can serve at speed ({@code WarmupReadiness}, in the
 * readiness group), bounded by {@code shortgate.warmup.deadline}. {@code Warmup} opens the pools, sends the pod
 * internal redirect requests ({@code WarmupRequests}, neither visits nor metrics) that take the near-cache-miss path
 * through Redis over the hottest codes that {@code HotCodes} keeps there, then preloads the near cache with those
 * codes in batches, and then fills it with the rest of what Redis holds, up to {@code preload-max} within
 * {@code preload-within}.
 */
package dev.shortgate.redirect.warmup;
