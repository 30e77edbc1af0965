package dev.shortgate.security;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.system.Problem;
import dev.shortgate.system.ProblemException;
import dev.shortgate.system.RedisConfigured;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Token-bucket rate limits with Bucket4j: per API key on {@code /api/**}, and per client IP on unknown-code
 * 404s. With Redis configured the API-key buckets live there (Lettuce, compare-and-swap, batched per key), so
 * the limit holds across all pods together; without Redis each pod keeps its own. The per-IP 404 buckets are
 * always per pod, so a scanner's requests never cost a Redis round trip. If Redis fails, the pod falls back to its
 * local bucket rather than failing or waving everything through.
 */
@Component
public class ApiRateLimiter {

    private static final Logger log = LoggerFactory.getLogger(ApiRateLimiter.class);

    private final BucketConfiguration apiLimit;
    private final BucketConfiguration notFoundLimit;
    private final BucketConfiguration authFailureLimit;
    private final Cache<String, Bucket> local;
    private final Mono<AsyncProxyManager<String>> shared; // empty when Redis is off
    private final String keyPrefix;
    private final Duration sharedTimeout;
    private final Ticker ticker;
    private final Cache<String, Long> emptyUntil;
    private final Cache<String, AsyncBucketProxy> proxies;
    private final Counter apiRejected;
    private final Counter notFoundRejected;
    private final Counter authFailureRejected;
    private final Counter redisFailures;

    ApiRateLimiter(SecurityProperties properties, ObjectProvider<ReactiveRedisConnectionFactory> redis,
                   Environment environment, Ticker ticker, MeterRegistry registry) {
        SecurityProperties.RateLimit limits = properties.rateLimit();
        this.apiLimit = configuration(limits.apiCapacity(), limits.apiRefill(), limits.apiPeriod());
        this.notFoundLimit = configuration(limits.notFoundCapacity(), limits.notFoundRefill(), limits.notFoundPeriod());
        this.authFailureLimit = configuration(limits.authFailureCapacity(), limits.authFailureRefill(),
                limits.authFailurePeriod());
        this.sharedTimeout = limits.redisTimeout();
        this.ticker = ticker;
        this.proxies = Caffeine.newBuilder().maximumSize(100_000).expireAfterAccess(Duration.ofMinutes(10)).build();
        this.emptyUntil = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(Duration.ofMinutes(1))
                .ticker(ticker).build();
        this.local = Caffeine.newBuilder().maximumSize(100_000).expireAfterAccess(Duration.ofMinutes(10)).build();
        this.keyPrefix = environment.getProperty("shortgate.redirect.redis.key-prefix", "sg:") + "rate:";
        boolean redisOn = RedisConfigured.OnRedis.isConfigured(environment);
        ReactiveRedisConnectionFactory factory = redisOn ? redis.getIfAvailable() : null;
        this.shared = factory instanceof LettuceConnectionFactory lettuce
                // Bucket4j connects with a blocking call: keep it off every event loop (it would deadlock one of
                // Lettuce's own), and make it once, retrying a few seconds after a failure.
                ? Mono.fromCallable(() -> proxyManager(lettuce))
                        .subscribeOn(Schedulers.boundedElastic())
                        .cache(value -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ofSeconds(5), () -> Duration.ZERO)
                : Mono.empty();
        this.apiRejected = rejected(registry, "api_key");
        this.notFoundRejected = rejected(registry, "not_found_ip");
        this.authFailureRejected = rejected(registry, "auth_failure_ip");
        this.redisFailures = Counter.builder("shortgate.ratelimit.fallbacks")
                .description("Rate-limit checks that fell back to the pod's local bucket because Redis failed")
                .register(registry);
    }

    /** Connects the shared buckets before traffic arrives, so the first requests do not fall back locally. */
    @EventListener(ApplicationReadyEvent.class)
    void connect() {
        shared.subscribe(manager -> log.debug("Shared rate-limit buckets connected"),
                error -> log.warn("Shared rate-limit buckets unavailable for now: {}", error.toString()));
    }

    private static Counter rejected(MeterRegistry registry, String limit) {
        return Counter.builder("shortgate.ratelimit.rejected").description("Requests refused with 429")
                .tag("limit", limit).register(registry);
    }

    private static BucketConfiguration configuration(long capacity, long refill, Duration period) {
        return BucketConfiguration.builder()
                .addLimit(limit -> limit.capacity(capacity).refillGreedy(refill, period))
                .build();
    }

    private AsyncProxyManager<String> proxyManager(LettuceConnectionFactory factory) {
        AbstractRedisClient client = factory.getNativeClient();
        var builder = client instanceof RedisClusterClient cluster
                ? Bucket4jLettuce.casBasedBuilder(cluster)
                : Bucket4jLettuce.casBasedBuilder((RedisClient) client);
        return builder
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                        Duration.ofSeconds(10)))
                .build()
                .asAsync()
                .withMapper((String key) -> key.getBytes(StandardCharsets.UTF_8));
    }

    /** Completes when this key may make another API call; otherwise a 429 problem with Retry-After. */
    Mono<Void> admit(ApiPrincipal principal) {
        String key = "api:" + (principal.keyId() == null ? "admin" : principal.keyId().toString());
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
        return tooMany(bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill(),
                "Too many requests with wrong API keys from this address.");
    }

    /** Spends one of the client's wrong-key budget (per pod, in memory). */
    void authenticationFailed(String clientIp) {
        localBucket("401:" + clientIp, authFailureLimit).tryConsume(1);
    }

    private Bucket localBucket(String key, BucketConfiguration configuration) {
        return local.get(key, k -> Bucket.builder().addLimit(configuration.getBandwidths()[0]).build());
    }

    private Mono<ConsumptionProbe> consume(String key, BucketConfiguration configuration) {
        // While a shared bucket is known to be empty, answer from memory: a flood from one client then costs no
        // Redis round trip (and no compare-and-swap contention on one hot key) until a token is due again.
        Long until = emptyUntil.getIfPresent(key);
        long now = ticker.read();
        if (until != null && now < until) {
            return Mono.just(ConsumptionProbe.rejected(0, until - now, until - now));
        }
        Mono<ConsumptionProbe> localProbe = Mono.fromSupplier(() ->
                localBucket(key, configuration).tryConsumeAndReturnRemaining(1));
        return shared
                .flatMap(manager -> {
                    // One proxy per key, with batching: concurrent requests of one key share a compare-and-swap
                    // round trip instead of racing each other's on a single hot Redis key.
                    AsyncBucketProxy bucket = proxies.get(key, k -> manager.builder()
                            .withOptimization(Optimizations.batching()).build(keyPrefix + k, configuration));
                    CompletableFuture<ConsumptionProbe> probe = bucket.tryConsumeAndReturnRemaining(1);
                    return Mono.fromFuture(probe).doOnNext(result -> {
                        if (!result.isConsumed()) {
                            emptyUntil.put(key, ticker.read() + result.getNanosToWaitForRefill());
                        }
                    });
                })
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
