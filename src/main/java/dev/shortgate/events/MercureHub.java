package dev.shortgate.events;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.util.concurrent.Queues;

/**
 * The subscriber side of a Mercure hub, in memory: each open stream is a subscriber with its topic selectors and a
 * bounded buffer. An update reaches every subscriber whose selectors match its topic and whose token grants it;
 * delivering never waits: a subscriber whose buffer is full is dropped (its stream ends) and counted
 * ({@code shortgate.events.dropped{sink="mercure",reason="slow_subscriber"}}). At most {@code max-subscribers}
 * streams are open at once. With Redis, the hub also hands each local update to the fan-out, and takes the other
 * pods' from it, so every subscriber sees the updates of every pod.
 */
final class MercureHub implements UpdateSink {

    private final int maxSubscribers;
    private final int bufferSize;
    private final Duration heartbeat;
    private final Scheduler timer;
    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final AtomicInteger open = new AtomicInteger();
    private final Counter published;
    private final Counter sent;
    private final Counter droppedSlow;
    private final Counter refusedFull;
    private volatile Consumer<Update> fanOut = update -> {};
    private volatile BooleanSupplier remoteInterest = () -> false;
    private volatile Runnable subscribed = () -> {};

    MercureHub(int maxSubscribers, int bufferSize, Duration heartbeat, Scheduler timer, MeterRegistry registry) {
        this.maxSubscribers = maxSubscribers;
        this.bufferSize = bufferSize;
        this.heartbeat = heartbeat;
        this.timer = timer;
        this.published = EventMeters.published(registry, "mercure");
        this.sent = EventMeters.confirmed(registry, "mercure");
        this.droppedSlow = EventMeters.dropped(registry, "mercure", "slow_subscriber");
        this.refusedFull = Counter.builder("shortgate.events.subscriptions.refused")
                .description("Mercure subscriptions refused because max-subscribers streams were open")
                .register(registry);
        Gauge.builder("shortgate.events.subscribers", open, AtomicInteger::get)
                .description("Open Mercure event streams")
                .register(registry);
    }

    /**
     * Where this pod's updates go to reach the other pods (Redis pub/sub), and whether any other pod has subscribers
     * now; none by default.
     */
    void fanOutTo(Consumer<Update> fanOut, BooleanSupplier remoteInterest, Runnable subscribed) {
        this.fanOut = fanOut;
        this.remoteInterest = remoteInterest;
        this.subscribed = subscribed;
    }

    /** Only while someone subscribes, on this pod or (as far as the fan-out heard) another. */
    @Override
    public boolean interested() {
        return open.get() > 0 || remoteInterest.getAsBoolean();
    }

    @Override
    public String name() {
        return "mercure";
    }

    /** An update of this pod: to its own subscribers, and to the other pods'. */
    @Override
    public void accept(Update update) {
        published.increment();
        deliver(update);
        fanOut.accept(update);
    }

    /** An update of this pod or another: to this pod's subscribers. */
    void deliver(Update update) {
        for (Subscriber subscriber : subscribers) {
            if (subscriber.wants(update.topic())) {
                if (subscriber.offer(update)) {
                    sent.increment();
                } else {
                    droppedSlow.increment();
                    subscribers.remove(subscriber);
                    subscriber.dropped.tryEmitValue(Boolean.TRUE);
                }
            }
        }
    }

    /** Open streams now. */
    int subscribers() {
        return open.get();
    }

    /**
     * A stream of the updates on {@code topics} (Mercure topic selectors: a topic, a URI template or {@code *})
     * that {@code granted} allows, with a comment every {@code heartbeat}; or {@code null} when
     * {@code max-subscribers} streams are open already.
     */
    Flux<ServerSentEvent<String>> subscribe(List<String> topics, List<String> granted) {
        if (open.incrementAndGet() > maxSubscribers) {
            open.decrementAndGet();
            refusedFull.increment();
            return null;
        }
        Subscriber subscriber = new Subscriber(selectors(topics), selectors(granted), bufferSize);
        subscribers.add(subscriber);
        subscribed.run();
        Flux<ServerSentEvent<String>> beats = Flux.interval(heartbeat, heartbeat, timer)
                .map(tick -> ServerSentEvent.<String>builder().comment("").build());
        return Flux.merge(subscriber.sink.asFlux(), beats)
                .takeUntilOther(subscriber.dropped.asMono())
                .doFinally(signal -> {
                    subscribers.remove(subscriber);
                    open.decrementAndGet();
                });
    }

    private static Predicate<String> selectors(List<String> selectors) {
        Predicate<String> any = topic -> false;
        for (String selector : selectors) {
            any = any.or(selector(selector));
        }
        return any;
    }

    /** One Mercure topic selector: {@code *}, a URI template ({@code {var}} matches one segment), or a topic. */
    static Predicate<String> selector(String selector) {
        if ("*".equals(selector)) {
            return topic -> true;
        }
        if (selector.indexOf('{') >= 0) {
            StringBuilder regex = new StringBuilder();
            int at = 0;
            while (at < selector.length()) {
                int open = selector.indexOf('{', at);
                int close = open < 0 ? -1 : selector.indexOf('}', open);
                if (open < 0 || close < 0) {
                    regex.append(Pattern.quote(selector.substring(at)));
                    break;
                }
                regex.append(Pattern.quote(selector.substring(at, open)));
                regex.append(selector.charAt(open + 1) == '+' ? ".+" : "[^/?#]+");
                at = close + 1;
            }
            Pattern pattern = Pattern.compile(regex.toString());
            return topic -> pattern.matcher(topic).matches();
        }
        return selector::equals;
    }

    private static final class Subscriber {

        private final Predicate<String> topics;
        private final Predicate<String> granted;
        private final Sinks.Many<ServerSentEvent<String>> sink;
        /** Ends the stream at once, whatever its buffer still holds. */
        private final Sinks.One<Boolean> dropped = Sinks.one();

        Subscriber(Predicate<String> topics, Predicate<String> granted, int bufferSize) {
            this.topics = topics;
            this.granted = granted;
            this.sink = Sinks.many()
                    .unicast()
                    .onBackpressureBuffer(
                            Queues.<ServerSentEvent<String>>get(bufferSize).get());
        }

        boolean wants(String topic) {
            return topics.test(topic) && granted.test(topic);
        }

        /** {@code false} when its buffer is full (or its stream has ended). */
        synchronized boolean offer(Update update) {
            ServerSentEvent<String> event = ServerSentEvent.<String>builder()
                    .id("urn:uuid:" + UUID.randomUUID())
                    .data(update.json())
                    .build();
            return sink.tryEmitNext(event).isSuccess();
        }
    }
}
