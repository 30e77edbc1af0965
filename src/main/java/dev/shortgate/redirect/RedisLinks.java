package dev.shortgate.redirect;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.Link;
import dev.shortgate.redirect.LinkLookup.Found;
import dev.shortgate.system.SharedRedis;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import io.lettuce.core.SetArgs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shared Redis tier: one string key per code holding the link as JSON. Every call has a short timeout and
 * goes through a circuit breaker, so a slow or absent Redis costs a redirect at most the timeout, and nothing once
 * the breaker is open; a lookup then falls through to the database.
 *
 * <p>The breaker counts what Redis did, not what this pod did: refused or reset connections and Redis errors count
 * against it, and so does a timeout while Redis has answered nothing for a whole timeout. A timeout while Redis
 * keeps answering other calls is this pod's own queueing (a saturated CPU, a busy event loop); it costs that one
 * request the database, but it does not open the breaker, which would send every request to the slower database
 * exactly when the pod can least afford it.
 */
final class RedisLinks implements RedisTier {

    private static final Logger log = LoggerFactory.getLogger(RedisLinks.class);

    enum Operation { GET, SET, DELETE, PUBLISH }

    private final SharedRedis redis;
    private final ReactiveStringRedisTemplate pubSub;
    private final RedirectProperties.Redis settings;
    private final JsonMapper json;
    private final CircuitBreaker breaker;
    private final SetArgs expiring;
    private final SetArgs expiringIfAbsent;
    private final Map<Operation, Counter> errors = new EnumMap<>(Operation.class);
    private final Counter hits;
    private final Counter misses;
    private final Counter lookupErrors;
    private final Liveness liveness;

    RedisLinks(SharedRedis redis, ReactiveStringRedisTemplate pubSub, RedirectProperties.Redis settings,
               JsonMapper json, Ticker ticker, MeterRegistry registry) {
        this.redis = redis;
        this.pubSub = pubSub;
        this.settings = settings;
        this.json = json;
        this.expiring = SetArgs.Builder.px(settings.ttl().toMillis());
        this.expiringIfAbsent = SetArgs.Builder.px(settings.ttl().toMillis()).nx();
        // Registered up front, so dashboards and alerts see 0 rather than no series before the first error.
        for (Operation operation : Operation.values()) {
            errors.put(operation, Counter.builder("shortgate.redis.errors")
                    .description("Redis calls that failed, timed out or were refused by the open circuit breaker")
                    .tag("operation", operation.name().toLowerCase(java.util.Locale.ROOT))
                    .register(registry));
        }
        this.hits = TieredLinkLookup.lookups(registry, "redis", "hit");
        this.misses = TieredLinkLookup.lookups(registry, "redis", "miss");
        this.lookupErrors = TieredLinkLookup.lookups(registry, "redis", "error");
        this.liveness = new Liveness(ticker, settings.timeout());
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.of(breakerConfig(liveness));
        this.breaker = breakers.circuitBreaker("redis");
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(registry);
    }

    /** Markers for "Redis does not hold it" and "Redis could not answer": both mean "ask below". */
    private static final Found NOT_HELD = Found.of(null, Tier.REDIS);
    private static final Found UNANSWERED = Found.of(null, Tier.REDIS);

    @Override
    public Mono<Found> find(String code, Supplier<Mono<Found>> below) {
        return get(code)
                .map(link -> {
                    hits.increment();
                    return Found.of(link, Tier.REDIS);
                })
                .defaultIfEmpty(NOT_HELD)
                .onErrorResume(error -> {
                    log.debug("Redis lookup failed, falling through to the database: {}", error.toString());
                    return Mono.just(UNANSWERED);
                })
                .flatMap(found -> {
                    if (found != NOT_HELD && found != UNANSWERED) {
                        return Mono.just(found);
                    }
                    (found == NOT_HELD ? misses : lookupErrors).increment();
                    return below.get().doOnNext(this::writeBack);
                });
    }

    /** The cached link, or empty when Redis does not hold it; an error when Redis cannot answer in time. */
    Mono<Link> get(String code) {
        return call(Operation.GET, commands -> commands.strings().get(settings.linkKey(code)))
                .map(value -> json.readValue(value, Link.class));
    }

    @Override
    public Mono<Void> put(Link link) {
        return call(Operation.SET, commands -> commands.strings().set(settings.linkKey(link.code()),
                json.writeValueAsBytes(link), expiring)).then();
    }

    /** What a lookup found below, written only where Redis holds nothing: a write-back never overwrites a change. */
    private void writeBack(Found found) {
        found.link().ifPresent(link -> call(Operation.SET, commands -> commands.strings().set(
                settings.linkKey(link.code()), json.writeValueAsBytes(link), expiringIfAbsent))
                .subscribe(done -> { }, error -> { }));
    }

    @Override
    public Mono<Void> delete(String code) {
        return call(Operation.DELETE, commands -> commands.keys().del(settings.linkKey(code))).then();
    }

    @Override
    public Mono<Void> publishInvalidation(String code) {
        return call(Operation.PUBLISH, commands -> commands.server().publish(settings.invalidationChannel(),
                code.getBytes(java.nio.charset.StandardCharsets.UTF_8))).then();
    }

    @Override
    public Flux<String> invalidations() {
        // Spring's listener container opens its connection with a blocking call: never on an event loop or a
        // timer thread. Deferred, so a Redis that is down does not fail startup.
        return Flux.defer(() -> pubSub.listenToChannel(settings.invalidationChannel()))
                .map(message -> message.getMessage())
                .subscribeOn(Schedulers.boundedElastic());
    }

    /** The breaker every call goes through; tests force it open to stand for a Redis that refuses calls. */
    CircuitBreaker circuitBreaker() {
        return breaker;
    }

    private <T> Mono<T> call(Operation operation, Function<SharedRedis.Commands, Publisher<T>> command) {
        return redis.commands()
                .flatMap(commands -> Mono.from(command.apply(commands)))
                .doOnEach(signal -> {
                    if (signal.isOnNext() || signal.isOnComplete()) {
                        liveness.answered();
                    }
                })
                .timeout(settings.timeout())
                .transformDeferred(CircuitBreakerOperator.of(breaker))
                .doOnError(e -> errors.get(operation).increment());
    }

    /** The breaker: opens when half of the last 50 calls (20 at least) failed in a way {@code liveness} blames on Redis. */
    static CircuitBreakerConfig breakerConfig(Liveness liveness) {
        return CircuitBreakerConfig.custom()
                .slidingWindowSize(50)
                .minimumNumberOfCalls(20)
                .failureRateThreshold(50)
                .ignoreException(liveness::isLocalQueueing)
                .waitDurationInOpenState(Duration.ofSeconds(5))
                .permittedNumberOfCallsInHalfOpenState(5)
                .build();
    }

    /**
     * Whether Redis is answering at all: a timeout while Redis answered some other call within the last timeout is
     * this pod's own queueing (its CPU or event loops are saturated), not a Redis fault.
     */
    static final class Liveness {

        private final Ticker ticker;
        private final long timeout;
        private volatile long lastAnswer; // ticker nanos of Redis's latest reply to any call

        Liveness(Ticker ticker, Duration timeout) {
            this.ticker = ticker;
            this.timeout = timeout.toNanos();
            this.lastAnswer = ticker.read() - 2 * this.timeout;
        }

        void answered() {
            lastAnswer = ticker.read();
        }

        boolean isLocalQueueing(Throwable error) {
            return error instanceof TimeoutException && ticker.read() - lastAnswer < timeout;
        }
    }
}
