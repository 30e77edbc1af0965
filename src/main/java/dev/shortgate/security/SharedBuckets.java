package dev.shortgate.security;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import reactor.core.publisher.Mono;

/**
 * Token buckets every pod shares, for limits that must hold across pods together (the per-key API limit). With
 * Redis configured they are {@link RedisBuckets}; without, {@link #NONE}, and every pod keeps its own. Chosen once,
 * in {@link RateLimitConfiguration}; {@link ApiRateLimiter} never asks which.
 */
interface SharedBuckets {

    /**
     * Takes one token from the shared bucket of this key: the probe, or empty when there are no shared buckets
     * (the caller then uses the pod's own). Fails when the shared store cannot answer; the caller falls back then.
     */
    Mono<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration);

    /** No shared buckets: each pod limits on its own. */
    SharedBuckets NONE = (key, configuration) -> Mono.empty();
}
