package dev.shortgate.redirect;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Invalidations over a Redis pub/sub channel: published through {@link RedisCalls} (bounded, behind the breaker),
 * received on Spring's listener container. Pub/sub is at-most-once; {@link CacheInvalidator} covers what a dropped
 * subscription may have missed.
 */
final class RedisInvalidationBus implements InvalidationBus {

    private final RedisCalls redis;
    private final ReactiveStringRedisTemplate pubSub;
    private final String channel;

    RedisInvalidationBus(RedisCalls redis, ReactiveStringRedisTemplate pubSub, RedirectProperties.Redis settings) {
        this.redis = redis;
        this.pubSub = pubSub;
        this.channel = settings.invalidationChannel();
    }

    @Override
    public Mono<Void> publish(String code) {
        return publishAll(List.of(code));
    }

    /** One {@code PUBLISH} per code (each message names one code), all within one bounded call. */
    @Override
    public Mono<Void> publishAll(List<String> codes) {
        return redis.call(RedisCalls.Operation.PUBLISH, commands -> Flux.fromIterable(codes)
                        .flatMap(code -> commands.server().publish(channel, code.getBytes(StandardCharsets.UTF_8))))
                .then();
    }

    @Override
    public Flux<String> invalidations() {
        // Spring's listener container opens its connection with a blocking call: never on an event loop or a
        // timer thread. Deferred, so a Redis that is down does not fail startup.
        return Flux.defer(() -> pubSub.listenToChannel(channel))
                .map(message -> message.getMessage())
                .subscribeOn(Schedulers.boundedElastic());
    }
}
