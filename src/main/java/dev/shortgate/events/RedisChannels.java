package dev.shortgate.events;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.system.redis.SharedRedis;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Mono;

/**
 * Bounded Redis {@code PUBLISH}es on the shared connection, for one sink: at most {@link #MAX_IN_FLIGHT} at once,
 * each given {@link #TIMEOUT}; one past the bound, refused, failed or timed out is dropped and counted. Nothing
 * waits for Redis: a publish is fired and its outcome counted. A batch ({@link #publishAll}) is written to the
 * connection at once, one flush for all its messages.
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

    /**
     * Publishes a batch, {@code messages.get(i)} on {@code channels.get(i)}, in one write to the connection; what does
     * not fit under {@link #MAX_IN_FLIGHT} is dropped, and each message is counted as confirmed or dropped once Redis
     * answered or {@link #TIMEOUT} passed.
     */
    void publishAll(List<String> channels, List<String> messages) {
        int wanted = channels.size();
        if (wanted == 0) {
            return;
        }
        int over = Math.max(0, Math.min(wanted, inFlight.addAndGet(wanted) - MAX_IN_FLIGHT));
        if (over > 0) {
            inFlight.addAndGet(-over);
            droppedBusy.increment(over);
        }
        int taken = wanted - over;
        if (taken == 0) {
            return;
        }
        published.increment(taken);
        List<byte[]> bytes = new ArrayList<>(taken);
        for (int i = 0; i < taken; i++) {
            bytes.add(messages.get(i).getBytes(StandardCharsets.UTF_8));
        }
        List<CompletableFuture<Long>> sent;
        try {
            sent = redis.publishAll(channels.subList(0, taken), bytes);
        } catch (RuntimeException e) {
            inFlight.addAndGet(-taken);
            droppedFailed.increment(taken);
            return;
        }
        Mono.fromFuture(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)), true)
                .timeout(TIMEOUT)
                .onErrorResume(error -> Mono.empty())
                .doFinally(signal -> {
                    int ok = 0;
                    for (CompletableFuture<Long> one : sent) {
                        if (one.isDone() && !one.isCompletedExceptionally()) {
                            ok++;
                        } else {
                            one.cancel(false);
                        }
                    }
                    confirmed.increment(ok);
                    droppedFailed.increment(taken - ok);
                    inFlight.addAndGet(-taken);
                })
                .subscribe();
    }

    /** For tests: publishes waiting for an answer now. */
    int inFlight() {
        return inFlight.get();
    }
}
