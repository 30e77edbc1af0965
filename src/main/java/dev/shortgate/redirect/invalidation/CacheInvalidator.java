package dev.shortgate.redirect.invalidation;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkChanges;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.guard.UnknownCodeGuard;
import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.redirect.lookup.RedisTier;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Keeps every pod's caches in step with link writes.
 *
 * <p>On this pod a write updates the near cache at once. A new or changed link is also written through to the
 * shared {@link RedisTier} (a deleted one as its tombstone), and the code is published on the
 * {@link InvalidationBus}; every pod, subscribed to it, evicts its near-cache entry (positive or negative). Without
 * Redis both do nothing. Pub/sub is at-most-once, so
 * a lost message leaves a stale entry for at most the near-cache TTL. After the subscription drops and comes
 * back, messages may have been missed, so the whole near cache is cleared then (see {@link #start}).
 *
 * <p>Redis failures here are logged and counted, never returned to the writer: the database already holds the
 * change.
 */
public final class CacheInvalidator implements LinkChanges, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CacheInvalidator.class);

    private final NearCache near;
    private final RedisTier redis;
    private final InvalidationBus bus;
    private final UnknownCodeGuard guard;
    private final RedirectProperties.Redis.Repair repair;
    private final Duration redisTtl;
    private final Map<String, Long> unrepaired = new ConcurrentHashMap<>(); // code -> newest failure's generation
    private final AtomicLong generations = new AtomicLong();
    private final Sinks.Empty<Void> stopping = Sinks.empty();
    private volatile boolean stopped;
    private final Counter repairsDone;
    private final Counter repairsFailed;
    private volatile Disposable subscription;
    private final Duration announceWait;
    private final Duration announceLimit;
    private final Scheduler timer;
    private final CurrentLinks database;
    private final AtomicLong unannounced = new AtomicLong(); // links whose announcement is being retried
    private final Counter resubscribed;
    private final Counter announcementsRetried;
    private final Counter announcementsGivenUp;

    /** The links as the database holds them now, by code: what a retried announcement writes. */
    @FunctionalInterface
    public interface CurrentLinks {
        Mono<Map<String, Link>> findByCodes(Collection<String> codes);
    }

    /**
     * @param database     reads the links a retried announcement writes
     * @param announceWait how long a create waits for its announcement through Redis before answering
     * @param timer        fires the announcement's bounds and the channel's new subscriptions: a thread that no
     *                     stalled backend can hold up
     */
    public CacheInvalidator(
            NearCache near,
            RedisTier redis,
            InvalidationBus bus,
            UnknownCodeGuard guard,
            CurrentLinks database,
            RedirectProperties properties,
            Duration announceWait,
            Scheduler timer,
            MeterRegistry registry) {
        this.announceWait = announceWait;
        this.announceLimit = properties.redis().writes().deadline();
        this.database = database;
        this.timer = timer;
        this.near = near;
        this.redis = redis;
        this.bus = bus;
        this.guard = guard;
        this.repair = properties.redis().repair();
        this.redisTtl = properties.redis().ttl();
        this.repairsDone = repairs(registry, "cleared");
        this.repairsFailed = repairs(registry, "given_up");
        this.resubscribed = Counter.builder("shortgate.invalidations.resubscribed")
                .description(
                        "Times the invalidation channel was subscribed again (and the near cache cleared) after it "
                                + "dropped or may have missed messages")
                .register(registry);
        this.announcementsRetried = announcements(registry, "done");
        this.announcementsGivenUp = announcements(registry, "given_up");
        Gauge.builder("shortgate.announcements.pending", unannounced, AtomicLong::get)
                .description("New links whose announcement through Redis failed, being retried in the background")
                .register(registry);
        Gauge.builder("shortgate.invalidations.pending", unrepaired, Map::size)
                .description("Links whose change Redis did not take, being cleared there in the background")
                .register(registry);
    }

    private static Counter announcements(MeterRegistry registry, String result) {
        return Counter.builder("shortgate.announcements.retries")
                .description("New links whose announcement through Redis was retried in the background: done, or "
                        + "given up on")
                .tag("result", result)
                .register(registry);
    }

    private static Counter repairs(MeterRegistry registry, String result) {
        return Counter.builder("shortgate.invalidations.repairs")
                .description("Background clears of links whose change Redis did not take: done, or given up on")
                .tag("result", result)
                .register(registry);
    }

    /**
     * Puts the new link in this pod's near cache, and announces it through Redis: the unknown-code guard's bits, the
     * link itself, then the invalidation message, so other pods drop a negative entry they hold. The announcement runs
     * on its own, bounded by the writes' deadline; the create waits for it at most {@code announceWait} (normally
     * Redis answers in well under a millisecond, so the guard knows the code before the create answers). A Redis that
     * is slow or silent thus never stalls a create or a batch: past the wait the create answers, and what did not make
     * it (guard bits, or the links and their invalidations) is retried in the background.
     */
    @Override
    public Mono<Void> created(Link link) {
        return createdAll(List.of(link));
    }

    /**
     * As {@link #created} for each link, with one announcement for them all: one guard write, one bounded call of
     * {@code SET}s and one of {@code PUBLISH}es, so a group of creates costs Redis three calls, not three a link.
     *
     * <p>Redis answers on Lettuce's event loop, which every Redis call of this pod shares. The create goes on from
     * here on another thread: the rest of a batch (its next chunk, its JSON answer) run on that loop held up the
     * replies of every other Redis call behind it, past their timeouts.
     */
    @Override
    public Mono<Void> createdAll(List<Link> links) {
        if (links.isEmpty()) {
            return Mono.empty();
        }
        links.forEach(near::put);
        return waitFor(announce(links));
    }

    /**
     * As {@link #createdAll}, but without filling the near cache or Redis with the links: their codes were free, so
     * Redis holds nothing for them, and this pod's negative entries are dropped. The announcement is the guard's bits
     * and the invalidations: two Redis calls, not three, and one {@code SET} fewer per link. What fails is retried in
     * the background, as for creates.
     */
    @Override
    public Mono<Void> importedAll(List<Link> links) {
        if (links.isEmpty()) {
            return Mono.empty();
        }
        List<String> codes = links.stream().map(Link::code).toList();
        codes.forEach(near::invalidate);
        Mono<Void> guarded = guard.addAll(codes).timeout(announceLimit, timer).onErrorResume(e -> {
            guardLater(codes, e);
            return Mono.empty();
        });
        return waitFor(guarded.then(Mono.defer(() -> bus.publishAll(codes)))
                .timeout(announceLimit, timer)
                .onErrorResume(e -> {
                    announceLater(codes, e, false);
                    return Mono.empty();
                }));
    }

    /** Runs an announcement on its own, and waits for it at most {@code announceWait}. */
    private Mono<Void> waitFor(Mono<Void> announcement) {
        Sinks.Empty<Void> announced = Sinks.empty();
        AtomicBoolean done = new AtomicBoolean();
        announcement.subscribe(
                null,
                null,
                () -> { // errors were resumed in announce
                    done.set(true);
                    announced.tryEmitEmpty();
                });
        if (done.get()) {
            return Mono.empty(); // done already (no Redis): no timer to arm, no thread to leave
        }
        return announced
                .asMono()
                .publishOn(Schedulers.parallel())
                .timeout(announceWait, Mono.<Void>empty().publishOn(Schedulers.parallel()), timer);
    }

    /** The guard's bits and the links, then the invalidations; what fails is retried in the background. */
    private Mono<Void> announce(List<Link> links) {
        List<String> codes = links.stream().map(Link::code).toList();
        Mono<Void> guarded = guard.addAll(codes).timeout(announceLimit, timer).onErrorResume(e -> {
            guardLater(codes, e);
            return Mono.empty();
        });
        Mono<Void> written = redis.putAll(links).timeout(announceLimit, timer);
        return Mono.whenDelayError(guarded, written)
                .then(Mono.defer(() -> bus.publishAll(codes)))
                .timeout(announceLimit, timer)
                .onErrorResume(e -> {
                    announceLater(codes, e);
                    return Mono.empty();
                });
    }

    /**
     * Announces links whose announcement failed again in the background, with backoff, until Redis takes it or the
     * attempts run out (counted either way). Each attempt reads the links from the database and writes them only where
     * Redis holds nothing for their codes, exactly as a lookup's write-back does: a change made meanwhile (on any pod)
     * is what the database holds, and a change already written to Redis is never overwritten by the older state.
     */
    private void announceLater(List<String> codes, Throwable error) {
        announceLater(codes, error, true);
    }

    /**
     * As above; without {@code fill} (imported links, which Redis need not hold) only the invalidations are sent again,
     * with no read of the database.
     */
    private void announceLater(List<String> codes, Throwable error, boolean fill) {
        log.warn(
                "Could not announce {} new link(s) through Redis, {} first; retrying in the background: {}",
                codes.size(),
                codes.get(0),
                error.toString());
        unannounced.addAndGet(codes.size());
        (fill
                        ? Mono.defer(() -> database.findByCodes(codes))
                                .flatMap(current -> redis.keepAll(List.copyOf(current.values())))
                        : Mono.<Void>empty())
                .then(Mono.defer(() -> bus.publishAll(codes)))
                .timeout(announceLimit, timer)
                .retryWhen(Retry.backoff(repair.attempts(), repair.firstBackoff())
                        .maxBackoff(repair.maxBackoff())
                        .scheduler(timer))
                .takeUntilOther(stopping.asMono())
                .doFinally(signal -> unannounced.addAndGet(-codes.size()))
                .subscribe(
                        null,
                        gaveUp -> {
                            announcementsGivenUp.increment(codes.size());
                            log.error(
                                    "Gave up announcing {} new link(s) through Redis, {} first; lookups read them from "
                                            + "the database and keep them in Redis: {}",
                                    codes.size(),
                                    codes.get(0),
                                    gaveUp.toString());
                        },
                        () -> {
                            if (!stopped) {
                                announcementsRetried.increment(codes.size());
                            }
                        });
    }

    /**
     * Adds codes the guard could not take at create time, in the background, in one write per attempt, until it
     * takes them or shutdown.
     */
    private void guardLater(List<String> codes, Throwable error) {
        log.warn(
                "Could not add {} new link(s) to the unknown-code guard, {} first; retrying in the background: {}",
                codes.size(),
                codes.get(0),
                error.toString());
        Mono.defer(() -> guard.addAll(codes))
                .retryWhen(
                        Retry.backoff(repair.attempts(), repair.firstBackoff()).maxBackoff(repair.maxBackoff()))
                .takeUntilOther(stopping.asMono())
                .subscribe(
                        null,
                        gaveUp -> log.error(
                                "Gave up adding {} new link(s) to the unknown-code guard, {} first; it may answer 404 "
                                        + "for them during a flood of unknown codes until the guard is rebuilt",
                                codes.size(),
                                codes.get(0)));
    }

    /**
     * Writes the new state (a tombstone for a delete) over the Redis key rather than deleting it: a lookup on
     * another pod that read the old row just before the change can then not put it back, since write-backs
     * only fill an absent key.
     *
     * <p>If Redis cannot take the change, the old state would stay there for up to the Redis TTL and every pod
     * would keep serving it. So this pod puts the new state in its near cache, and the key is deleted and the
     * invalidation published in the background, with
     * backoff, until Redis takes them or the attempts run out. A delete does not depend on which change it
     * follows, so a late repair can never put back an older state, and one repair covers every change of the
     * code that failed before it ran. (By then the database has long committed the change, so the race that
     * writing the state avoids is no longer open.)
     */
    @Override
    public Mono<Void> changed(Link link) {
        String code = link.code();
        near.invalidate(code);
        return redis.put(link).then(bus.publish(code)).onErrorResume(e -> {
            log.warn(
                    "Could not write change of link {} to Redis; clearing it in the background: {}",
                    code,
                    e.toString());
            // This pod serves the change at once, not the old state Redis still holds until the repair clears it.
            near.put(link);
            repairLater(code);
            return Mono.empty();
        });
    }

    /** Marks the code as needing a repair, and starts one unless one is already running for it. */
    private void repairLater(String code) {
        long generation = generations.incrementAndGet();
        if (unrepaired.put(code, generation) == null) {
            repair(code);
        }
    }

    private void repair(String code) {
        AtomicLong covered = new AtomicLong();
        Mono.defer(() -> {
                    covered.set(unrepaired.getOrDefault(code, 0L)); // every failure up to now, this attempt included
                    return redis.delete(code).then(bus.publish(code));
                })
                .retryWhen(
                        Retry.backoff(repair.attempts(), repair.firstBackoff()).maxBackoff(repair.maxBackoff()))
                .takeUntilOther(stopping.asMono()) // shutdown cancels repairs still waiting to retry
                .subscribe(
                        done -> {},
                        error -> {
                            if (!unrepaired.remove(code, covered.get())) {
                                repair(code); // a newer change failed meanwhile: it gets attempts of its own
                                return;
                            }
                            repairsFailed.increment();
                            log.error(
                                    "Gave up clearing link {} in Redis; other pods may serve its old state until the "
                                            + "Redis TTL ({}) ends: {}",
                                    code,
                                    redisTtl,
                                    error.toString());
                        },
                        () -> {
                            if (stopped) {
                                return; // cancelled by shutdown, not done
                            }
                            repairsDone.increment();
                            log.info("Cleared link {} in Redis after an earlier failure", code);
                            if (!unrepaired.remove(code, covered.get())) {
                                repair(code); // a newer change failed after this repair's last attempt began
                            }
                        });
    }

    /**
     * Subscribes to the invalidation channel, and subscribes again whenever it drops or cannot be reached. Once a
     * subscription after the first attempt is active, the whole near cache is cleared: messages published while
     * this pod was not subscribed are lost. Attempts that fail clear nothing, so a Redis outage does not also
     * empty the near cache that redirects lean on meanwhile.
     */
    @Override
    public void start() {
        AtomicBoolean attemptedBefore = new AtomicBoolean();
        subscription = Mono.defer(() -> {
                    boolean again = attemptedBefore.getAndSet(true);
                    return bus.invalidations().doOnNext(active -> {
                        if (again) {
                            log.info("Invalidation channel subscribed again; clearing the near cache in case "
                                    + "messages were lost");
                            resubscribed.increment();
                            near.invalidateAll();
                        }
                    });
                })
                .flatMapMany(codes -> codes)
                .doOnNext(near::invalidate)
                .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200))
                        .maxBackoff(Duration.ofSeconds(10))
                        .transientErrors(true) // a subscription that was active starts the backoff afresh
                        .scheduler(timer)
                        .doBeforeRetry(signal -> log.warn(
                                "Invalidation channel failed, subscribing again: {}",
                                signal.failure().toString())))
                .subscribe();
    }

    @Override
    public void stop() {
        stopped = true;
        stopping.tryEmitEmpty();
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
