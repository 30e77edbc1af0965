package dev.shortgate.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinksCreated;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.VisitTap;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.concurrent.Queues;

/**
 * The one source of events: visits and orphan visits from the visit intake ({@link VisitTap}, on the redirect's
 * event loop) and new links ({@link LinksCreated}). Taking a fact costs a rate check, an increment and a lock-free
 * queue offer; nothing on the redirect path waits for the rest. At most {@code max-rate} facts a second are taken
 * (a token bucket, {@link RateGate}, whose refusal writes nothing; past it a fact is dropped and counted,
 * {@code shortgate.events.dropped{sink="source", reason="rate"}}), and at most {@code buffer-capacity} are held
 * ({@code reason="buffer_full"}).
 *
 * <p>A worker takes the held facts in batches of up to {@link #MAX_BATCH}, at most one batch per
 * {@code flush-interval} unless a full one waits: the first fact into an idle worker waits that long for others,
 * and while a batch is being turned into updates the next one fills. A batch's
 * visits read their short URLs together ({@link ShlinkPayloads#ofVisits}: one statement per table for the codes not
 * cached), each payload is written once for all its topics, and each update goes to every sink that wants updates
 * now ({@link UpdateSink#interested}), each of which buffers and sheds on its own. While no sink is interested (no
 * broker configured, nobody subscribed to the hub) a fact is not even taken.
 */
final class EventSource implements VisitTap, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EventSource.class);

    /** Facts turned into updates at once. */
    static final int MAX_BATCH = 256;

    private sealed interface Fact permits Visited, Created {}

    private record Visited(RawVisit visit) implements Fact {}

    private record Created(Link link) implements Fact {}

    private final ShlinkPayloads payloads;
    private final List<UpdateSink> sinks;
    private final int capacity;
    private final RateGate rate;
    private final Duration flushInterval;
    private final Scheduler worker;
    private final Queue<Fact> queue = Queues.<Fact>unboundedMultiproducer().get();
    private final AtomicInteger held = new AtomicInteger();
    /** Whether the worker has a drain scheduled or running; the offer that finds it idle schedules one. */
    private final AtomicBoolean draining = new AtomicBoolean();

    private final Counter taken;
    private final Counter droppedRate;
    private final Counter droppedFull;
    private final Counter droppedFailed;
    private final Counter droppedShutdown;
    private volatile boolean running;

    /**
     * @param maxRate       facts taken per second at most (a burst of one second's worth); 0 for no bound
     * @param flushInterval how long the first fact into an idle worker waits for others to batch with
     * @param ticker        the time of the rate bound
     * @param worker        the thread that drains the buffer; must support delayed tasks
     */
    EventSource(
            ShlinkPayloads payloads,
            List<UpdateSink> sinks,
            int capacity,
            int maxRate,
            Duration flushInterval,
            Ticker ticker,
            Scheduler worker,
            MeterRegistry registry) {
        this.payloads = payloads;
        this.sinks = List.copyOf(sinks);
        this.capacity = capacity;
        this.rate = maxRate <= 0 ? null : new RateGate(maxRate, ticker);
        this.flushInterval = flushInterval;
        this.worker = worker;
        this.taken = EventMeters.published(registry, "source");
        this.droppedRate = EventMeters.dropped(registry, "source", "rate");
        this.droppedFull = EventMeters.dropped(registry, "source", "buffer_full");
        this.droppedFailed = EventMeters.dropped(registry, "source", "render_failed");
        this.droppedShutdown = EventMeters.dropped(registry, "source", "shutdown");
        Gauge.builder("shortgate.events.buffered", held, AtomicInteger::get)
                .tag("sink", "source")
                .description("Events held in a buffer")
                .register(registry);
    }

    @Override
    public void visited(RawVisit visit) {
        offer(new Visited(visit));
    }

    /** New links, from link creation. */
    @EventListener
    void created(LinksCreated created) {
        for (Link link : created.links()) {
            offer(new Created(link));
        }
    }

    /** Whether anything is listening: without sinks facts are not even taken. */
    boolean active() {
        return !sinks.isEmpty();
    }

    private void offer(Fact fact) {
        if (!running || !anyInterested()) {
            return;
        }
        if (rate != null && !rate.tryTake()) {
            droppedRate.increment();
            return;
        }
        if (held.incrementAndGet() > capacity) {
            held.decrementAndGet();
            droppedFull.increment();
            return;
        }
        taken.increment();
        queue.offer(fact);
        if (draining.compareAndSet(false, true)) {
            worker.schedule(this::drain, flushInterval.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /** Whether any sink wants updates now: without one, a visit costs this loop and nothing else. */
    private boolean anyInterested() {
        for (UpdateSink target : sinks) {
            if (target.interested()) {
                return true;
            }
        }
        return false;
    }

    /** Takes one batch and turns it into updates; the next batch is taken when this one is done. */
    private void drain() {
        List<Fact> batch = new ArrayList<>(Math.min(MAX_BATCH, Math.max(1, held.get())));
        Fact fact;
        while (batch.size() < MAX_BATCH && (fact = queue.poll()) != null) {
            batch.add(fact);
        }
        if (batch.isEmpty()) {
            draining.set(false);
            // a fact offered between the empty poll and the flag's reset found the worker busy: take it now
            if (!queue.isEmpty() && running && draining.compareAndSet(false, true)) {
                worker.schedule(this::drain);
            }
            return;
        }
        render(batch)
                .doFinally(signal -> {
                    // a full batch waiting is taken at once; a partial one gets flush-interval to fill
                    if (running) {
                        long wait = held.addAndGet(-batch.size()) >= MAX_BATCH ? 0 : flushInterval.toNanos();
                        worker.schedule(this::drain, wait, TimeUnit.NANOSECONDS);
                    } else {
                        held.addAndGet(-batch.size());
                        draining.set(false);
                    }
                })
                .subscribe(this::deliver, error -> {});
    }

    private Mono<List<Update>> render(List<Fact> batch) {
        List<Update> created = new ArrayList<>();
        List<RawVisit> visits = new ArrayList<>(batch.size());
        for (Fact fact : batch) {
            if (fact instanceof Visited visited) {
                visits.add(visited.visit());
            } else {
                try {
                    created.add(payloads.ofNewLink(((Created) fact).link()));
                } catch (RuntimeException e) {
                    droppedFailed.increment();
                    log.debug("Could not turn a new link into an update: {}", e.toString());
                }
            }
        }
        if (visits.isEmpty()) {
            return Mono.just(created);
        }
        return Mono.defer(() -> payloads.ofVisits(visits, error -> {
                    droppedFailed.increment();
                    log.debug("Could not turn a visit into updates: {}", error.toString());
                }))
                .map(updates -> {
                    if (created.isEmpty()) {
                        return updates;
                    }
                    created.addAll(updates);
                    return created;
                })
                .onErrorResume(error -> {
                    droppedFailed.increment(visits.size());
                    log.debug("Could not turn {} visits into updates: {}", visits.size(), error.toString());
                    return Mono.just(created);
                });
    }

    /** Hands each update to every sink that wants updates now; a sink that is idle costs nothing. */
    private void deliver(List<Update> updates) {
        for (UpdateSink target : sinks) {
            if (!target.interested()) {
                continue;
            }
            try {
                target.acceptAll(updates);
            } catch (RuntimeException e) {
                log.debug("Sink {} refused updates: {}", target.name(), e.toString());
            }
        }
    }

    @Override
    public synchronized void start() {
        running = true;
    }

    /** Stops taking facts; those still held are dropped and counted ({@code reason="shutdown"}). */
    @Override
    public synchronized void stop() {
        running = false;
        int dropped = 0;
        while (queue.poll() != null) {
            dropped++;
        }
        held.addAndGet(-dropped);
        droppedShutdown.increment(dropped);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Facts held now, not yet turned into updates. */
    int held() {
        return held.get();
    }
}
