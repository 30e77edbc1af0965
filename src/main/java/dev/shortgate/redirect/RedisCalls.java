package dev.shortgate.redirect;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.system.redis.SharedRedis;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import io.lettuce.core.RedisCommandTimeoutException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;
import reactor.core.scheduler.Scheduler;

/**
 * Every Redis call of the redirect feature (the link tier, the unknown-code guard and the invalidation channel) goes
 * through one of two of these: one for lookups on the redirect path (breaker {@code redis}), one for what creates and
 * changes write (breaker {@code redis-writes}, with a longer bound). Each has a timeout, a circuit breaker of its
 * own, and an error counter per operation (shared by both). A burst of writes, a batch's announcements, thus never
 * opens the breaker that redirects depend on, and a lookup's short timeout never cuts a write that is merely queued.
 *
 * <p>Both judge what Redis did, not what this pod did. A call that has waited {@code timeout} fails then if Redis
 * has answered nothing else meanwhile (Redis is down or hung: fall through to the database, and count it against
 * the breaker). If Redis has answered other calls meanwhile, the wait is this pod's own queueing (a saturated CPU,
 * busy event loops): the answer is most likely already on its way, and the database would cost more than waiting
 * for it, so the call waits on, up to {@code queueing-limit}; a timeout then is ignored by the breaker. Refused or
 * reset connections and Redis errors always count. An overloaded pod thus neither opens its breaker nor sends every
 * lookup to the slower database exactly when it can least afford it.
 */
public final class RedisCalls {

    public enum Operation {
        GET,
        SET,
        DELETE,
        PUBLISH,
        GUARD
    }

    private final SharedRedis redis;
    private final Duration timeout;
    private final int patience; // further timeouts to wait while Redis keeps answering
    private final Scheduler timer;
    private final Liveness liveness;
    private final CircuitBreaker breaker;
    private final Map<Operation, Counter> errors = new EnumMap<>(Operation.class);

    /** @param name the circuit breaker's name, {@code redis} or {@code redis-writes} */
    RedisCalls(
            String name,
            SharedRedis redis,
            Duration timeout,
            Duration queueingLimit,
            Ticker ticker,
            Scheduler timer,
            MeterRegistry registry) {
        this(name, redis, new Liveness(ticker, timeout), queueingLimit, timer, registry);
    }

    /**
     * Calls on the same connection as {@code other}, judged by the same answers: any reply on the connection shows
     * that Redis is answering, whichever calls it belongs to.
     */
    RedisCalls(
            String name,
            RedisCalls other,
            Duration timeout,
            Duration queueingLimit,
            Scheduler timer,
            MeterRegistry registry) {
        this(name, other.redis, other.liveness.judgingOver(timeout), queueingLimit, timer, registry);
    }

    private RedisCalls(
            String name,
            SharedRedis redis,
            Liveness liveness,
            Duration queueingLimit,
            Scheduler timer,
            MeterRegistry registry) {
        this.redis = redis;
        this.timeout = Duration.ofNanos(liveness.timeout);
        this.patience = (int) Math.max(0, queueingLimit.toNanos() / timeout.toNanos() - 1);
        this.timer = timer;
        this.liveness = liveness;
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.of(breakerConfig(liveness));
        this.breaker = breakers.circuitBreaker(name);
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(registry);
        // Registered up front, so dashboards and alerts see 0 rather than no series before the first error.
        for (Operation operation : Operation.values()) {
            errors.put(
                    operation,
                    Counter.builder("shortgate.redis.errors")
                            .description(
                                    "Redis calls that failed, timed out or were refused by the open circuit breaker")
                            .tag("operation", operation.name().toLowerCase(Locale.ROOT))
                            .register(registry));
        }
    }

    /**
     * Runs a command on the shared connection, bounded and guarded as described above. The command is a {@link Mono}
     * that completes when Redis has answered all of it: a group of commands is reduced to one (with {@code then()}
     * or {@code collectList()}) before it is handed over. A {@code Flux} adapted with {@code Mono.from} would be
     * cancelled at its first reply, and the commands not yet written would never reach Redis.
     */
    public <T> Mono<T> call(Operation operation, Function<SharedRedis.Commands, Mono<T>> command) {
        return Mono.defer(
                        () -> breaker.getState() == CircuitBreaker.State.HALF_OPEN ? trial(command) : bounded(command))
                .transformDeferred(CircuitBreakerOperator.of(breaker))
                .doOnError(e -> errors.get(operation).increment());
    }

    /**
     * Runs a command bounded as {@link #call} does, but past the breaker: for writes that other pods rely on (the
     * unknown-code guard's bits of a new code). The breaker is this pod's judgement of Redis as a whole; on a Redis
     * Cluster it opens when one master fails, while the node that holds the guard still answers every other pod. A
     * guard write refused here would then let those pods answer 404 for a code that exists.
     */
    public <T> Mono<T> callPastBreaker(Operation operation, Function<SharedRedis.Commands, Mono<T>> command) {
        return bounded(command).doOnError(e -> errors.get(operation).increment());
    }

    /**
     * A call the half-open breaker lets through to try Redis again, judged strictly: an answer that took longer than
     * the timeout fails it ({@link SlowTrial}), however alive Redis looks. A Redis 200 ms away (fault N1 of
     * {@code .ci/run}) keeps answering, so its calls wait on as a queueing pod's would; judged by liveness alone, its
     * trials succeeded often enough to close the breaker by luck, and the next calls opened it again. The calls of a
     * closed breaker stay judged by liveness, so a pod's own overload never opens it (the bench's overload scenario).
     */
    private <T> Mono<T> trial(Function<SharedRedis.Commands, Mono<T>> command) {
        return strictly(bounded(command), liveness);
    }

    /** The call, failed with {@link SlowTrial} if it answers later than the timeout after it was subscribed. */
    static <T> Mono<T> strictly(Mono<T> call, Liveness liveness) {
        return Mono.defer(() -> {
            long start = liveness.ticker.read();
            return call.materialize()
                    .flatMap(signal -> !signal.isOnError() && liveness.ticker.read() - start > liveness.timeout
                            ? Mono.<Signal<T>>error(SlowTrial.INSTANCE)
                            : Mono.just(signal))
                    .dematerialize();
        });
    }

    /** A half-open breaker's trial call that Redis answered, but later than the timeout. */
    static final class SlowTrial extends RuntimeException {
        static final SlowTrial INSTANCE = new SlowTrial();

        private SlowTrial() {
            super("Redis answered a trial call later than its timeout", null, false, false);
        }
    }

    /** The command on the shared connection, noting each answer for the liveness, and given up on as below. */
    private <T> Mono<T> bounded(Function<SharedRedis.Commands, Mono<T>> command) {
        return redis.commands()
                .flatMap(command)
                .doOnEach(signal -> {
                    if (signal.isOnNext() || signal.isOnComplete()) {
                        liveness.answered();
                    }
                })
                .timeout(giveUp(timeout, patience, liveness, timer));
    }

    /**
     * Fires at the first multiple of the timeout at which Redis has answered nothing for a whole timeout, and at the
     * latest after {@code patience} more timeouts.
     */
    static Mono<Long> giveUp(Duration timeout, int patience, Liveness liveness, Scheduler timer) {
        return Flux.interval(timeout, timeout, timer)
                .filter(tick -> tick >= patience || !liveness.answeredWithin())
                .next();
    }

    /**
     * Keeps {@link Liveness} true to Redis while few or no calls are made (an open breaker lets none through): every
     * timeout without an answer, one {@code PING}, waited for up to the queueing limit. Without it, a breaker that had
     * opened would judge its first probes by a silence of its own making.
     */
    Disposable heartbeat(Duration queueingLimit) {
        return Flux.interval(timeout, timeout, timer)
                .onBackpressureDrop() // ticks while a PING is out are skipped
                .filter(tick -> !liveness.answeredWithin())
                .concatMap(
                        tick -> redis.commands()
                                .flatMap(commands -> commands.server().ping())
                                .timeout(queueingLimit, timer)
                                .doOnNext(pong -> liveness.answered())
                                .onErrorResume(error -> Mono.empty()),
                        1)
                .subscribe();
    }

    /** The connection's commands without timeout or breaker, for long background work (building the guard). */
    public Mono<SharedRedis.Commands> unguarded() {
        return redis.commands();
    }

    /** The breaker; tests force it open to stand for a Redis that refuses calls. */
    public CircuitBreaker circuitBreaker() {
        return breaker;
    }

    /**
     * The breaker: opens when half of the last 10 calls failed in a way {@code liveness} blames on Redis, so a Redis
     * that went away after a long run of answers is cut off within 10 failed calls (fault check F1 of
     * {@code .ci/run}; a window of 50 took 25). Calls made before the connection was first opened fail at once and
     * say nothing about Redis: they are ignored.
     *
     * <p>Once open, it lets 20 trial calls through after 5 s, and closes only if at least half of them succeed; each
     * time the trials fail, the next wait doubles, up to 40 s, and a close starts it at 5 s again. With 5 trials, a
     * Redis 200 ms away on a slow network (fault N1: most calls time out, a few succeed when other answers happen to
     * keep the liveness fresh) closed the breaker now and then by luck, and the next second opened it again: those
     * flaps cost each request let through 100-240 ms. Twenty trials make such a lucky close rare, and the growing wait
     * makes the trials themselves rare while Redis stays slow. A trial that Redis answers only after its timeout fails
     * ({@link #trial}); outside the trials a slow answer is no failure, so a pod's own overload cannot open it.
     */
    static CircuitBreakerConfig breakerConfig(Liveness liveness) {
        return CircuitBreakerConfig.custom()
                .slidingWindowSize(10)
                .minimumNumberOfCalls(10)
                .failureRateThreshold(50)
                .ignoreException(error -> error instanceof SharedRedis.NotConnected || liveness.isLocalQueueing(error))
                .waitIntervalFunctionInOpenState(
                        IntervalFunction.ofExponentialBackoff(Duration.ofSeconds(5), 2, Duration.ofSeconds(40)))
                .permittedNumberOfCallsInHalfOpenState(20)
                .build();
    }

    /** Whether Redis is answering at all: when it last answered any call. */
    static final class Liveness {

        private final Ticker ticker;
        private final long timeout;
        private final AtomicLong lastAnswer; // ticker nanos of Redis's latest reply to any call

        Liveness(Ticker ticker, Duration timeout) {
            this(ticker, timeout.toNanos(), new AtomicLong(ticker.read() - 2 * timeout.toNanos()));
        }

        private Liveness(Ticker ticker, long timeout, AtomicLong lastAnswer) {
            this.ticker = ticker;
            this.timeout = timeout;
            this.lastAnswer = lastAnswer;
        }

        /** The same answers, judged over another timeout. */
        Liveness judgingOver(Duration otherTimeout) {
            return new Liveness(ticker, otherTimeout.toNanos(), lastAnswer);
        }

        void answered() {
            lastAnswer.lazySet(ticker.read());
        }

        /** Whether Redis answered some call within the last timeout. */
        boolean answeredWithin() {
            return ticker.read() - lastAnswer.get() < timeout;
        }

        /**
         * A timeout while Redis answered other calls within the last timeout: this pod's queueing, not Redis's fault.
         * Lettuce's own command timeout ({@code spring.data.redis.timeout}) is judged the same way as ours.
         */
        boolean isLocalQueueing(Throwable error) {
            return (error instanceof TimeoutException || error instanceof RedisCommandTimeoutException)
                    && answeredWithin();
        }
    }
}
