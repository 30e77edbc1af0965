package dev.shortgate.security;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.modulith.NamedInterface;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Token-bucket rate limits with Bucket4j: per API key on {@code /api/**}, and per client IP on unknown-code
 * 404s. The API-key buckets are {@link SharedBuckets} (in Redis when it is configured, so the limit holds across
 * all pods together; otherwise each pod keeps its own). The per-IP 404 buckets are always per pod, so a scanner's
 * requests never cost a Redis round trip. If the shared buckets fail, the pod falls back to its local bucket rather
 * than failing or waving everything through.
 */
@Component
@NamedInterface("clients")
public class ApiRateLimiter {

    private static final Logger log = LoggerFactory.getLogger(ApiRateLimiter.class);

    private final BucketConfiguration apiLimit;
    private final BucketConfiguration notFoundLimit;
    private final BucketConfiguration authFailureLimit;
    private final Cache<String, Bucket> local;
    private final SharedBuckets shared;
    private final Duration sharedTimeout;
    private final Counter apiRejected;
    private final Counter notFoundRejected;
    private final Counter authFailureRejected;
    private final Counter redisFailures;

    ApiRateLimiter(SecurityProperties properties, SharedBuckets shared, MeterRegistry registry) {
        SecurityProperties.RateLimit limits = properties.rateLimit();
        this.apiLimit = configuration(limits.apiCapacity(), limits.apiRefill(), limits.apiPeriod());
        this.notFoundLimit = configuration(limits.notFoundCapacity(), limits.notFoundRefill(), limits.notFoundPeriod());
        this.authFailureLimit =
                configuration(limits.authFailureCapacity(), limits.authFailureRefill(), limits.authFailurePeriod());
        this.shared = shared;
        this.sharedTimeout = limits.redisTimeout();
        this.local = Caffeine.newBuilder()
                .maximumSize(100_000)
                .expireAfterAccess(Duration.ofMinutes(10))
                .build();
        this.apiRejected = rejected(registry, "api_key");
        this.notFoundRejected = rejected(registry, "not_found_ip");
        this.authFailureRejected = rejected(registry, "auth_failure_ip");
        this.redisFailures = Counter.builder("shortgate.ratelimit.fallbacks")
                .description("Rate-limit checks that fell back to the pod's local bucket because Redis failed")
                .register(registry);
    }

    private static Counter rejected(MeterRegistry registry, String limit) {
        return Counter.builder("shortgate.ratelimit.rejected")
                .description("Requests refused with 429")
                .tag("limit", limit)
                .register(registry);
    }

    private static BucketConfiguration configuration(long capacity, long refill, Duration period) {
        return BucketConfiguration.builder()
                .addLimit(limit -> limit.capacity(capacity).refillGreedy(refill, period))
                .build();
    }

    /** Completes when this key may make another API call; otherwise a 429 problem with Retry-After. */
    Mono<Void> admit(ApiPrincipal principal) {
        String key = "api:"
                + (principal.keyId() == null ? "admin" : principal.keyId().toString());
        return consume(key, apiLimit).flatMap(probe -> {
            if (probe.isConsumed()) {
                return Mono.empty();
            }
            apiRejected.increment();
            return Mono.error(tooMany(probe, "This API key is over its request rate."));
        });
    }

    /**
     * Whether a client may get another unknown-code 404; when not, the caller answers 429 with the returned
     * problem. Only unknown codes are counted: hits on real codes never touch this.
     */
    public Mono<ProblemException> checkNotFound(String clientIp) {
        return Mono.justOrEmpty(notFoundLimited(clientIp));
    }

    /** As {@link #checkNotFound}, answered at once: the 429 problem, or {@code null} when the client may go on. */
    public ProblemException notFoundLimited(String clientIp) {
        // Per pod, in memory: a scanner's 404s must cost no Redis round trip, and slowing it per pod is enough.
        ConsumptionProbe probe = localBucket("404:" + clientIp, notFoundLimit).tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return null;
        }
        notFoundRejected.increment();
        return tooMany(probe, "Too many requests for unknown links from this address.");
    }

    /**
     * Whether a client may still have unknown API keys looked up in the database; when not, the 429 problem
     * to answer with. Nothing is consumed here: only {@link #authenticationFailed} spends the budget.
     */
    ProblemException checkAuthFailures(String clientIp) {
        Bucket bucket = localBucket("401:" + clientIp, authFailureLimit);
        if (bucket.getAvailableTokens() > 0) {
            return null;
        }
        authFailureRejected.increment();
        return tooMany(
                bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill(),
                "Too many requests with wrong API keys from this address.");
    }

    /** Spends one of the client's wrong-key budget (per pod, in memory). */
    void authenticationFailed(String clientIp) {
        localBucket("401:" + clientIp, authFailureLimit).tryConsume(1);
    }

    private Bucket localBucket(String key, BucketConfiguration configuration) {
        return local.get(
                key,
                k -> Bucket.builder().addLimit(configuration.getBandwidths()[0]).build());
    }

    private Mono<ConsumptionProbe> consume(String key, BucketConfiguration configuration) {
        Mono<ConsumptionProbe> localProbe =
                Mono.fromSupplier(() -> localBucket(key, configuration).tryConsumeAndReturnRemaining(1));
        return shared.tryConsume(key, configuration)
                .timeout(sharedTimeout)
                .onErrorResume(e -> {
                    redisFailures.increment();
                    log.debug("Shared rate limit unavailable, using this pod's bucket: {}", e.toString());
                    return localProbe;
                })
                .switchIfEmpty(localProbe);
    }

    private static ProblemException tooMany(ConsumptionProbe probe, String detail) {
        return tooMany(probe.getNanosToWaitForRefill(), detail);
    }

    private static ProblemException tooMany(long nanosToWait, String detail) {
        long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(nanosToWait + 999_999_999L));
        return Problem.RATE_LIMITED.toException(detail).retryAfter(Duration.ofSeconds(seconds));
    }
}
