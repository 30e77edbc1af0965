package dev.shortgate.redirect.invalidation;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.RedisCalls;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.ReactiveSubscription;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.ReactiveRedisMessageListenerContainer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Invalidations over a Redis pub/sub channel: published through {@link RedisCalls} (bounded, behind the breaker),
 * received on a Spring listener container. Pub/sub is at-most-once; {@link CacheInvalidator} covers what a dropped
 * subscription may have missed.
 */
public final class RedisInvalidationBus implements InvalidationBus {

    private final RedisCalls redis;
    private final ReactiveRedisConnectionFactory connections;
    private final String channel;

    public RedisInvalidationBus(
            RedisCalls redis, ReactiveRedisConnectionFactory connections, RedirectProperties.Redis settings) {
        this.redis = redis;
        this.connections = connections;
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
                .flatMap(code -> commands.server().publish(channel, code.getBytes(StandardCharsets.UTF_8)))
                .then());
    }

    /**
     * Subscribes through a listener container of its own, destroyed (its connection closed) however the
     * subscription ends: dropped, cancelled, or refused before it was active.
     */
    @Override
    public Mono<Flux<String>> invalidations() {
        // The container opens its connection with a blocking call: never on an event loop or a timer thread.
        // Deferred, so a Redis that is down does not fail startup.
        return Mono.defer(() -> {
                    ReactiveRedisMessageListenerContainer container =
                            new ReactiveRedisMessageListenerContainer(connections);
                    Runnable destroy =
                            () -> container.destroyLater().onErrorComplete().subscribe();
                    return container
                            .receiveLater(ChannelTopic.of(channel))
                            .map(messages -> messages.map(ReactiveSubscription.Message::getMessage)
                                    .doFinally(signal -> destroy.run()))
                            .doOnError(error -> destroy.run())
                            .doOnCancel(destroy);
                })
                .subscribeOn(Schedulers.boundedElastic());
    }
}
