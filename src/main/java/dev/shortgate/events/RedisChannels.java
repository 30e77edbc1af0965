package dev.shortgate.events;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.system.redis.SharedRedis;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Bounded Redis {@code PUBLISH}es on the shared connection, for one sink: at most {@link #MAX_IN_FLIGHT} at once,
 * each given {@link #TIMEOUT}; one past the bound, refused, failed or timed out is dropped and counted. Nothing
 * waits for Redis: a publish is fired and its outcome counted.
 */
final class RedisChannels {

    static final int MAX_IN_FLIGHT = 1024;
    static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final SharedRedis redis;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Counter published;
    private final Counter confirmed;
    private final Counter droppedBusy;
    private final Counter droppedFailed;

    RedisChannels(SharedRedis redis, String sink, MeterRegistry registry) {
        this.redis = redis;
        this.published = EventMeters.published(registry, sink);
        this.confirmed = EventMeters.confirmed(registry, sink);
        this.droppedBusy = EventMeters.dropped(registry, sink, "buffer_full");
        this.droppedFailed = EventMeters.dropped(registry, sink, "publish_failed");
    }

    void publish(String channel, String message) {
        if (inFlight.incrementAndGet() > MAX_IN_FLIGHT) {
            inFlight.decrementAndGet();
            droppedBusy.increment();
            return;
        }
        published.increment();
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        redis.commands()
                .flatMap(commands -> commands.server().publish(channel, bytes))
                .timeout(TIMEOUT)
                .doFinally(signal -> inFlight.decrementAndGet())
                .subscribe(receivers -> confirmed.increment(), error -> droppedFailed.increment());
    }

    /** For tests: publishes waiting for an answer now. */
    int inFlight() {
        return inFlight.get();
    }
}
