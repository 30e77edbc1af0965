package dev.shortgate.redirect;

import java.time.Duration;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkChanges;
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
    private volatile Disposable subscription;

    CacheInvalidator(NearCache near, ObjectProvider<RedisLinks> redis) {
        this.near = near;
        this.redis = redis.getIfAvailable();
    }

    @Override
    public Mono<Void> created(Link link) {
        near.put(link);
        if (redis == null) {
            return Mono.empty();
        }
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
     * only fill an absent key.
     */
    @Override
    public Mono<Void> changed(Link link) {
        String code = link.code();
        near.invalidate(code);
        if (redis == null) {
            return Mono.empty();
        }
        return redis.put(link)
                .then(redis.publishInvalidation(code))
                .onErrorResume(e -> {
                    log.warn("Could not invalidate link {} through Redis; other pods may serve the old version "
                            + "until their near-cache TTL: {}", code, e.toString());
                    return Mono.empty();
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
