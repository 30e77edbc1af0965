package dev.shortgate.events;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

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
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The one source of events: visits and orphan visits from the visit intake ({@link VisitTap}, on the redirect's
 * event loop) and new links ({@link LinksCreated}). Taking a fact costs an increment and a queue offer: at most
 * {@code buffer-capacity} facts are held, and one that finds the buffer full is dropped and counted
 * ({@code shortgate.events.dropped{sink="source",reason="buffer_full"}}). A worker turns facts into Shlink's updates
 * ({@link ShlinkPayloads}) and hands each to every {@link UpdateSink}, each of which buffers and sheds on its own.
 * While no sink is interested (no broker configured, nobody subscribed to the hub) a fact is not even taken.
 */
final class EventSource implements VisitTap, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EventSource.class);

    /** How many facts are turned into updates at once (a visit's may wait for its short URL to be read). */
    static final int RENDER_CONCURRENCY = 8;

    private sealed interface Fact permits Visited, Created {}

    private record Visited(RawVisit visit) implements Fact {}

    private record Created(Link link) implements Fact {}

    private final ShlinkPayloads payloads;
    private final List<UpdateSink> sinks;
    private final int capacity;
    private final Scheduler worker;
    private final AtomicInteger held = new AtomicInteger();
    private final Counter taken;
    private final Counter droppedFull;
    private final Counter droppedFailed;
    private volatile FluxSink<Fact> sink;
    private volatile boolean running;
    private Disposable pipeline;

    EventSource(
            ShlinkPayloads payloads, List<UpdateSink> sinks, int capacity, Scheduler worker, MeterRegistry registry) {
        this.payloads = payloads;
        this.sinks = List.copyOf(sinks);
        this.capacity = capacity;
        this.worker = worker;
        this.taken = EventMeters.published(registry, "source");
        this.droppedFull = EventMeters.dropped(registry, "source", "buffer_full");
        this.droppedFailed = EventMeters.dropped(registry, "source", "render_failed");
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
        FluxSink<Fact> target = sink;
        if (!running || target == null || !anyInterested()) {
            return;
        }
        if (held.incrementAndGet() > capacity) {
            held.decrementAndGet();
            droppedFull.increment();
            return;
        }
        taken.increment();
        target.next(fact);
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

    private Mono<Void> render(Fact fact) {
        Mono<List<Update>> updates = fact instanceof Visited visited
                ? payloads.ofVisit(visited.visit())
                : Mono.fromCallable(() -> List.of(payloads.ofNewLink(((Created) fact).link())));
        return updates.doOnNext(this::deliver)
                .onErrorResume(error -> {
                    droppedFailed.increment();
                    log.debug("Could not turn an event into updates: {}", error.toString());
                    return Mono.empty();
                })
                .doFinally(signal -> held.decrementAndGet())
                .then();
    }

    private void deliver(List<Update> updates) {
        for (Update update : updates) {
            for (UpdateSink target : sinks) {
                try {
                    target.accept(update);
                } catch (RuntimeException e) {
                    log.debug("Sink {} refused an update: {}", target.name(), e.toString());
                }
            }
        }
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        Flux<Fact> facts = Flux.create(created -> sink = created, FluxSink.OverflowStrategy.BUFFER);
        pipeline = facts.publishOn(worker, 256)
                .flatMap(this::render, RENDER_CONCURRENCY)
                .subscribe(null, error -> log.error("Event pipeline stopped on an unexpected error", error));
        running = true;
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (pipeline != null) {
            pipeline.dispose();
        }
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
