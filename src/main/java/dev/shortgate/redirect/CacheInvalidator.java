package dev.shortgate.redirect;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkChanges;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Keeps every pod's caches in step with link writes.
 *
 * <p>On this pod a write updates the near cache at once. With Redis on, a new or changed link is also written
 * through to Redis (a deleted one as its tombstone), and the code is published on the invalidation channel; every pod,
 * subscribed to that channel, evicts its near-cache entry (positive or negative). Pub/sub is at-most-once, so
 * a lost message leaves a stale entry for at most the near-cache TTL. After the subscription drops and comes
 * back, messages may have been missed, so the whole near cache is cleared then.
 *
 * <p>Redis failures here are logged and counted, never returned to the writer: the database already holds the
 * change.
 */
@Component
class CacheInvalidator implements LinkChanges, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CacheInvalidator.class);

    private final NearCache near;
    private final RedisLinks redis; // null when the Redis tier is off
    private final RedirectProperties.Redis.Repair repair;
    private final Duration redisTtl;
    private final Map<String, Link> unannounced = new ConcurrentHashMap<>();
    private final Set<String> repairing = ConcurrentHashMap.newKeySet();
    private final Counter repairsDone;
    private final Counter repairsFailed;
    private volatile Disposable subscription;

    CacheInvalidator(NearCache near, ObjectProvider<RedisLinks> redis, RedirectProperties properties,
                     MeterRegistry registry) {
        this.near = near;
        this.redis = redis.getIfAvailable();
        this.repair = properties.redis().repair();
        this.redisTtl = properties.redis().ttl();
        this.repairsDone = repairs(registry, "written");
        this.repairsFailed = repairs(registry, "given_up");
        Gauge.builder("shortgate.invalidations.pending", unannounced, Map::size)
                .description("Link changes Redis has not taken yet, retried in the background")
                .register(registry);
    }

    private static Counter repairs(MeterRegistry registry, String result) {
        return Counter.builder("shortgate.invalidations.repairs")
                .description("Link changes written to Redis by a background retry, or given up on")
                .tag("result", result)
                .register(registry);
    }

    @Override
    public Mono<Void> created(Link link) {
        near.put(link);
        if (redis == null) {
            return Mono.empty();
        }
        // A lost announcement costs little: other pods drop their negative entry within its short TTL.
        return redis.put(link)
                .then(redis.publishInvalidation(link.code()))
                .onErrorResume(e -> {
                    log.warn("Could not announce new link {} through Redis: {}", link.code(), e.toString());
                    return Mono.empty();
                });
    }

    /**
     * Writes the new state (a tombstone for a delete) over the Redis key rather than deleting it: a lookup on
     * another pod that read the old row just before the change can then not put it back, since write-backs
     * only fill an absent key. This pod serves the new state at once from its near cache.
     *
     * <p>If Redis cannot take the change, the old state would stay there for up to the Redis TTL and every pod
     * would keep serving it, so the write and the invalidation message are retried in the background until
     * Redis takes them or {@code repair-attempts} run out. Only the latest state of a code is ever retried.
     */
    @Override
    public Mono<Void> changed(Link link) {
        near.put(link);
        if (redis == null) {
            return Mono.empty();
        }
        String code = link.code();
        unannounced.put(code, link);
        return announce(link).onErrorResume(e -> {
            log.warn("Could not write change of link {} to Redis; retrying in the background: {}", code,
                    e.toString());
            repairLater(code);
            return Mono.empty();
        });
    }

    /** Writes the change to Redis and tells every pod; forgets it once Redis has taken it. */
    private Mono<Void> announce(Link link) {
        return redis.put(link)
                .then(redis.publishInvalidation(link.code()))
                .doOnSuccess(done -> unannounced.remove(link.code(), link));
    }

    private void repairLater(String code) {
        if (!repairing.add(code)) {
            return; // a repair of this code is running, and it always writes the latest state
        }
        Mono.defer(() -> {
                    Link latest = unannounced.get(code);
                    return latest == null ? Mono.<Void>empty() : announce(latest);
                })
                .retryWhen(Retry.backoff(repair.attempts(), repair.firstBackoff()).maxBackoff(repair.maxBackoff()))
                .subscribe(done -> { }, error -> {
                    unannounced.remove(code);
                    repairing.remove(code);
                    repairsFailed.increment();
                    log.error("Gave up writing change of link {} to Redis; other pods may serve its old state "
                            + "until the Redis TTL ({}) ends: {}", code, redisTtl, error.toString());
                }, () -> {
                    repairing.remove(code);
                    repairsDone.increment();
                    log.info("Wrote the delayed change of link {} to Redis", code);
                    if (unannounced.containsKey(code)) {
                        repairLater(code); // a newer change failed while this repair was finishing
                    }
                });
    }

    @Override
    public void start() {
        if (redis == null) {
            return;
        }
        boolean[] connectedBefore = {false};
        subscription = Mono.defer(() -> {
                    if (connectedBefore[0]) {
                        log.info("Invalidation channel reconnected; clearing the near cache in case messages were lost");
                        near.invalidateAll();
                    }
                    connectedBefore[0] = true;
                    return Mono.empty();
                })
                .thenMany(redis.invalidations())
                .doOnNext(near::invalidate)
                .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200)).maxBackoff(Duration.ofSeconds(10))
                        .doBeforeRetry(signal -> log.warn("Invalidation channel failed, resubscribing: {}",
                                signal.failure().toString())))
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable current = subscription;
        if (current != null) {
            current.dispose();
        }
        subscription = null;
    }

    /** Stop after the web server has drained, so pods keep hearing invalidations while they still serve. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }

    @Override
    public boolean isRunning() {
        return subscription != null && !subscription.isDisposed();
    }
}
