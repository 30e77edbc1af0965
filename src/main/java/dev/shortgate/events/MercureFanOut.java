package dev.shortgate.events;

import java.time.Duration;
import java.util.UUID;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.ReactiveSubscription;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.ReactiveRedisMessageListenerContainer;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Carries Mercure updates between pods over one Redis pub/sub channel ({@code shortgate.events.mercure.channel}),
 * so a subscriber on any pod sees the visits of every pod. Each pod delivers its own updates to its subscribers
 * directly and publishes them with its id; it delivers what it receives from other pods and ignores its own. The
 * subscription is made again, with backoff, whenever it drops. Pub/sub is at-most-once: an update published while a
 * pod is not subscribed does not reach that pod's subscribers, as a Mercure hub without history would not either.
 * A message is {@code pod \n topic \n perCode \n json}.
 *
 * <p>Publishing every visit to Redis when nobody watches would cost a {@code PUBLISH} per redirect for nothing, so
 * a pod with subscribers says so on the channel every {@code presence} period ({@code pod \n ~subscribers}), and a
 * pod publishes its updates to the channel only while another pod it heard from within three periods has them. A
 * subscriber that opens on one pod may thus miss up to one period of the other pods' visits.
 */
final class MercureFanOut implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(MercureFanOut.class);

    /** The second line of a presence message: no topic starts with {@code ~}. */
    static final String PRESENCE = "~subscribers";

    /** How often a pod with subscribers says so. */
    static final Duration PRESENCE_PERIOD = Duration.ofSeconds(2);

    private final RedisChannels channels;
    private final ReactiveRedisConnectionFactory connections;
    private final String channel;
    private final MercureHub hub;
    private final String pod = UUID.randomUUID().toString();
    private final Duration presence;
    private final LongSupplier nanoTime;
    private volatile long remotePresenceAt = Long.MIN_VALUE;
    private volatile Disposable subscription;
    private volatile Disposable announcing;

    /**
     * @param presence how often a pod with subscribers says so on the channel; a pod publishes its updates only
     *                 while another pod said so within three periods
     */
    MercureFanOut(
            RedisChannels channels,
            ReactiveRedisConnectionFactory connections,
            String channel,
            MercureHub hub,
            Duration presence,
            LongSupplier nanoTime) {
        this.channels = channels;
        this.connections = connections;
        this.channel = channel;
        this.hub = hub;
        this.presence = presence;
        this.nanoTime = nanoTime;
    }

    /** Whether another pod said it had subscribers within the last three presence periods. */
    boolean remoteInterest() {
        long at = remotePresenceAt;
        return at != Long.MIN_VALUE && nanoTime.getAsLong() - at < presence.toNanos() * 3;
    }

    /** Says on the channel that this pod has subscribers, when it has. */
    void announce() {
        if (hub.subscribers() > 0) {
            channels.publish(channel, pod + "\n" + PRESENCE);
        }
    }

    /** Sends this pod's update to the other pods, while one of them has subscribers. */
    void publish(Update update) {
        if (!remoteInterest()) {
            return;
        }
        channels.publish(channel, pod + "\n" + update.topic() + "\n" + update.perCode() + "\n" + update.json());
    }

    /** Delivers an update of another pod to this pod's subscribers; ignores this pod's own and malformed ones. */
    void received(String message) {
        if (message.endsWith("\n" + PRESENCE)) {
            if (!message.startsWith(pod + "\n")) {
                remotePresenceAt = nanoTime.getAsLong();
            }
            return;
        }
        int first = message.indexOf('\n');
        int second = first < 0 ? -1 : message.indexOf('\n', first + 1);
        int third = second < 0 ? -1 : message.indexOf('\n', second + 1);
        if (third < 0 || message.startsWith(pod + "\n")) {
            return;
        }
        hub.deliver(new Update(
                message.substring(first + 1, second),
                message.substring(third + 1),
                Boolean.parseBoolean(message.substring(second + 1, third))));
    }

    @Override
    public void start() {
        hub.fanOutTo(this::publish, this::remoteInterest, this::announce);
        announcing = Flux.interval(Duration.ZERO, presence).subscribe(tick -> announce());
        subscription = Mono.defer(() -> {
                    ReactiveRedisMessageListenerContainer container =
                            new ReactiveRedisMessageListenerContainer(connections);
                    return Mono.just(container
                            .receive(ChannelTopic.of(channel))
                            .map(ReactiveSubscription.Message::getMessage)
                            .doFinally(signal ->
                                    container.destroyLater().onErrorComplete().subscribe()));
                })
                .subscribeOn(Schedulers.boundedElastic())
                .flatMapMany(messages -> messages)
                .concatWith(Flux.error(() -> new IllegalStateException("Mercure channel closed")))
                .doOnError(error -> log.warn("Mercure channel dropped, subscribing again: {}", error.toString()))
                .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200)).maxBackoff(Duration.ofSeconds(5)))
                .subscribe(this::received);
    }

    @Override
    public void stop() {
        hub.fanOutTo(update -> {}, () -> false, () -> {});
        if (announcing != null) {
            announcing.dispose();
        }
        Disposable current = subscription;
        if (current != null) {
            current.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        return subscription != null && !subscription.isDisposed();
    }
}
