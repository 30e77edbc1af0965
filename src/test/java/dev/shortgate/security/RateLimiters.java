package dev.shortgate.security;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;

/** Rate limiters for tests outside this package that build a redirect path by hand. */
public final class RateLimiters {

    private RateLimiters() {}

    /** Per-pod buckets only, with the default limits. */
    public static ApiRateLimiter perPod(MeterRegistry registry) {
        SecurityProperties.RateLimit limits = new SecurityProperties.RateLimit(
                200,
                100,
                Duration.ofSeconds(1),
                100,
                10,
                Duration.ofSeconds(1),
                Duration.ofMillis(100),
                20,
                2,
                Duration.ofSeconds(1),
                0.01,
                Duration.ofMillis(100));
        return new ApiRateLimiter(
                new SecurityProperties(null, Duration.ofSeconds(30), 65536, 5242880, 1073741824, limits),
                SharedBuckets.NONE,
                registry);
    }
}
