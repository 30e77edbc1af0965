package dev.shortgate.redirect.invalidation;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.RedisCalls;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.ReactiveSubscription;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.ReactiveRedisMessageListenerContainer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Invalidations over a Redis pub/sub channel: published through {@link RedisCalls} (bounded, behind the breaker),
 * received on a Spring listener container. Pub/sub is at-most-once; {@link CacheInvalidator} covers what a dropped
 * subscription may have missed.
 *
 * <p>A subscription can die without a word: a subscribed connection sends nothing, so after a network partition it
 * may stay open on this side while Redis has long dropped it (and Lettuce, reconnecting by itself, would subscribe
 * again without telling anyone that messages were lost). So each subscription checks itself end to end: every
 * {@code channel-check} it publishes a probe of its own on the channel and expects it back within two checks. The
 * subscription fails, and is made again (which clears the near cache), when a probe that Redis took does not come
 * back, and when Redis could not be reached for longer than that and answers again: messages may have been lost
 * either way. Probes start with {@code ~}, which no code does, so every other pod (older builds too) drops them.
 */
public final class RedisInvalidationBus implements InvalidationBus {

    private final RedisCalls redis;
    private final ReactiveRedisConnectionFactory connections;
    private final String channel;
    private final Duration check;
    private final Scheduler timer;
    private final String pod = UUID.randomUUID().toString();

    /** @param timer fires the channel checks: a thread no stalled backend can hold up */
    public RedisInvalidationBus(
            RedisCalls redis,
            ReactiveRedisConnectionFactory connections,
            RedirectProperties.Redis settings,
            Scheduler timer) {
        this.redis = redis;
        this.connections = connections;
        this.channel = settings.invalidationChannel();
        this.check = settings.channelCheck();
        this.timer = timer;
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
                            .map(messages -> checked(messages.map(ReactiveSubscription.Message::getMessage))
                                    .doFinally(signal -> destroy.run()))
                            .doOnError(error -> destroy.run())
                            .doOnCancel(destroy);
                })
                .subscribeOn(Schedulers.boundedElastic());
    }

    /** The codes of a subscription, failing when its probes show that it may have missed messages. */
    private Flux<String> checked(Flux<String> messages) {
        return ChannelWatch.watch(
                messages,
                probe -> redis.call(RedisCalls.Operation.PUBLISH, commands -> commands.server()
                        .publish(channel, probe.getBytes(StandardCharsets.UTF_8))),
                pod,
                check,
                timer);
    }
}
