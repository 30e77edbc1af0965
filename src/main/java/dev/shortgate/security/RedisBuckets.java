package dev.shortgate.security;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.distributed.proxy.optimization.DelayParameters;
import io.github.bucket4j.distributed.proxy.optimization.Optimization;
import io.github.bucket4j.distributed.proxy.optimization.OptimizationListener;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Shared buckets in Redis with Bucket4j (Lettuce, compare-and-swap, batched per key), standalone or Cluster. While a
 * bucket is known to be empty it is answered from memory, so a flood from one client costs no Redis round trip
 * (and no compare-and-swap contention on one hot key) until a token is due again.
 *
 * <p>A pod settles with Redis in arrears (Bucket4j's delaying optimization): it takes tokens from its last copy of
 * a bucket, up to {@code slack} of the bucket's capacity or for {@code syncInterval}, then writes them all off in
 * the next round trip, which also brings it the other pods' takings. A key that creates 2,000 links a second so
 * costs some tens of round trips a second instead of 2,000. The pods together can exceed a burst by at most their
 * slack each; what they took beyond it is owed, as the bucket goes below zero. When the slack is under one token
 * (a bucket under 100 tokens at the default 1%) every request settles at once.
 */
final class RedisBuckets implements SharedBuckets {

    private static final Logger log = LoggerFactory.getLogger(RedisBuckets.class);

    private final Mono<AsyncProxyManager<String>> manager;
    private final String keyPrefix;
    private final Ticker ticker;
    private final Cache<String, AsyncBucketProxy> proxies;
    private final Cache<String, Long> emptyUntil;
    private final double slack;
    private final Duration syncInterval;
    private final OptimizationListener unsettled;

    RedisBuckets(
            LettuceConnectionFactory factory,
            String keyPrefix,
            double slack,
            Duration syncInterval,
            Ticker ticker,
            MeterRegistry registry) {
        this.keyPrefix = keyPrefix;
        this.ticker = ticker;
        this.slack = slack;
        this.syncInterval = syncInterval;
        Counter answeredLocally = Counter.builder("shortgate.ratelimit.unsettled")
                .description("API rate-limit checks answered from the pod's copy of the shared bucket, without a"
                        + " Redis round trip (settled with the next one)")
                .register(registry);
        this.unsettled = new OptimizationListener() {
            @Override
            public void incrementMergeCount(int count) {}

            @Override
            public void incrementSkipCount(int count) {
                answeredLocally.increment(count);
            }
        };
        this.proxies = Caffeine.newBuilder()
                .maximumSize(100_000)
                .expireAfterAccess(Duration.ofMinutes(10))
                .build();
        this.emptyUntil = Caffeine.newBuilder()
                .maximumSize(100_000)
                .expireAfterWrite(Duration.ofMinutes(1))
                .ticker(ticker)
                .build();
        // Bucket4j connects with a blocking call: keep it off every event loop (it would deadlock one of Lettuce's
        // own), and make it once, retrying a few seconds after a failure.
        this.manager = Mono.fromCallable(() -> proxyManager(factory))
                .subscribeOn(Schedulers.boundedElastic())
                .cache(value -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ofSeconds(5), () -> Duration.ZERO);
    }

    /** Connects before traffic arrives, so the first requests do not fall back to the pods' own buckets. */
    @EventListener(ApplicationReadyEvent.class)
    void connect() {
        manager.subscribe(
                connected -> log.debug("Shared rate-limit buckets connected"),
                error -> log.warn("Shared rate-limit buckets unavailable for now: {}", error.toString()));
    }

    private static AsyncProxyManager<String> proxyManager(LettuceConnectionFactory factory) {
        AbstractRedisClient client = factory.getNativeClient();
        var builder = client instanceof RedisClusterClient cluster
                ? Bucket4jLettuce.casBasedBuilder(cluster)
                : Bucket4jLettuce.casBasedBuilder((RedisClient) client);
        return builder.expirationAfterWrite(
                        ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                .build()
                .asAsync()
                .withMapper((String key) -> key.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Mono<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration) {
        Long until = emptyUntil.getIfPresent(key);
        long now = ticker.read();
        if (until != null && now < until) {
            return Mono.just(ConsumptionProbe.rejected(0, until - now, until - now));
        }
        return manager.flatMap(connected -> {
            // One proxy per key, with batching: concurrent requests of one key share a compare-and-swap round trip
            // instead of racing each other's on a single hot Redis key.
            AsyncBucketProxy bucket = proxies.get(key, k -> connected
                    .builder()
                    .withOptimization(optimization(configuration))
                    .build(keyPrefix + k, configuration));
            return Mono.fromFuture(bucket.tryConsumeAndReturnRemaining(1)).doOnNext(probe -> {
                if (!probe.isConsumed()) {
                    emptyUntil.put(key, ticker.read() + probe.getNanosToWaitForRefill());
                }
            });
        });
    }

    /**
     * Batching alone when the slack is under one token; otherwise delaying (which batches too): tokens taken from
     * the pod's copy, settled in arrears.
     */
    private Optimization optimization(BucketConfiguration configuration) {
        long capacity = configuration.getBandwidths()[0].getCapacity();
        long unsettledTokens = (long) (capacity * slack);
        if (unsettledTokens < 1) {
            return Optimizations.batching();
        }
        return Optimizations.delaying(new DelayParameters(unsettledTokens, syncInterval))
                .withListener(unsettled);
    }
}
