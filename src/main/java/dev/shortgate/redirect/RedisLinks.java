package dev.shortgate.redirect;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.link.Link;
import dev.shortgate.system.RedisConfigured;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import io.lettuce.core.ClientOptions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shared Redis tier: one string key per code holding the link as JSON. Every call has a short timeout and
 * goes through a circuit breaker, so a slow or absent Redis costs a redirect at most the timeout, and nothing
 * once the breaker is open. Callers treat any error as "fall through to the database".
 */
@Component
@RedisConfigured
class RedisLinks {

    private final ReactiveStringRedisTemplate redis;
    private final RedirectProperties.Redis settings;
    private final JsonMapper json;
    private final CircuitBreaker breaker;
    private final Map<String, Counter> errors = new HashMap<>();

    RedisLinks(ReactiveStringRedisTemplate redis, RedirectProperties properties, JsonMapper json,
               MeterRegistry registry) {
        this.redis = redis;
        this.settings = properties.redis();
        this.json = json;
        // Registered up front, so dashboards and alerts see 0 rather than no series before the first error.
        for (String operation : List.of("get", "set", "delete", "publish")) {
            errors.put(operation, Counter.builder("shortgate.redis.errors")
                    .description("Redis calls that failed, timed out or were refused by the open circuit breaker")
                    .tag("operation", operation)
                    .register(registry));
        }
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .slidingWindowSize(50)
                .minimumNumberOfCalls(20)
                .failureRateThreshold(50)
                .slowCallDurationThreshold(settings.timeout())
                .slowCallRateThreshold(80)
                .waitDurationInOpenState(Duration.ofSeconds(5))
                .permittedNumberOfCallsInHalfOpenState(5)
                .build());
        this.breaker = breakers.circuitBreaker("redis");
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(registry);
    }

    /** The cached link, or empty when Redis does not hold it; an error when Redis cannot answer in time. */
    Mono<Link> get(String code) {
        return guard("get", redis.opsForValue().get(settings.linkKey(code)))
                .map(value -> json.readValue(value, Link.class));
    }

    Mono<Void> put(Link link) {
        return guard("set", redis.opsForValue().set(settings.linkKey(link.code()), json.writeValueAsString(link),
                settings.ttl())).then();
    }

    /** Writes the link only when Redis holds nothing for its code: what lookups write back never overwrites a change. */
    Mono<Void> putIfAbsent(Link link) {
        return guard("set", redis.opsForValue().setIfAbsent(settings.linkKey(link.code()),
                json.writeValueAsString(link), settings.ttl())).then();
    }

    Mono<Void> delete(String code) {
        return guard("delete", redis.delete(settings.linkKey(code))).then();
    }

    Mono<Void> publishInvalidation(String code) {
        return guard("publish", redis.convertAndSend(settings.invalidationChannel(), code)).then();
    }

    /** Invalidation messages from every pod (this one included). Long-lived; errors when the connection drops. */
    reactor.core.publisher.Flux<String> invalidations() {
        // Deferred: subscribing connects, and a Redis that is down must not fail startup.
        return reactor.core.publisher.Flux.defer(() -> redis.listenToChannel(settings.invalidationChannel()))
                .map(message -> message.getMessage());
    }

    /** The breaker every call goes through; tests force it open to stand for a Redis that refuses calls. */
    CircuitBreaker circuitBreaker() {
        return breaker;
    }

    private <T> Mono<T> guard(String operation, Mono<T> call) {
        return call.timeout(settings.timeout())
                .transformDeferred(CircuitBreakerOperator.of(breaker))
                .doOnError(e -> errors.get(operation).increment());
    }

    @Configuration(proxyBeanMethods = false)
    @RedisConfigured
    static class RedisClientConfiguration {

        /** Fail commands at once while disconnected, instead of queueing them behind a reconnect. */
        @Bean
        LettuceClientOptionsBuilderCustomizer rejectWhileDisconnected() {
            return builder -> builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
        }
    }
}
