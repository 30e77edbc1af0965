package dev.shortgate.visit.counts;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Runs the {@link VisitCountFlusher}'s flushes on the timer: one every {@code counts-flush-interval}, counted from
 * the end of the one before, so flushes never overlap. On stop it cancels the next flush, waits for the one in
 * progress, then runs the last one. It decides only when a flush runs; what a flush writes, and how it retries, is
 * the flusher's.
 */
final class CountFlushSchedule {

    private static final Logger log = LoggerFactory.getLogger(CountFlushSchedule.class);

    private final Supplier<Mono<Void>> flush;
    private final Supplier<Mono<Void>> last;
    private final Duration interval;
    private final Scheduler timer;

    private volatile boolean running;
    private Disposable next;
    private Mono<Void> inFlight = Mono.empty();

    /**
     * @param flush the flush to run every {@code interval}, built under this schedule's lock
     * @param last  the flush to run once on stop
     */
    CountFlushSchedule(Supplier<Mono<Void>> flush, Supplier<Mono<Void>> last, Duration interval, Scheduler timer) {
        this.flush = flush;
        this.last = last;
        this.interval = interval;
        this.timer = timer;
    }

    /** Starts the timer: the first flush runs one interval from now. Does nothing while running. */
    synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        schedule();
    }

    boolean isRunning() {
        return running;
    }

    private synchronized void schedule() {
        if (running) {
            next = timer.schedule(this::tick, interval.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private synchronized void tick() {
        if (!running) {
            return;
        }
        Mono<Void> cycle = flush.get().doFinally(signal -> schedule()).cache();
        inFlight = cycle.onErrorResume(e -> Mono.empty());
        cycle.subscribe(null, error -> log.error("Count flush failed unexpectedly", error));
    }

    /**
     * Stops the timer, waits for a flush in progress, then runs the last flush. Completes at once when not running.
     */
    Mono<Void> stop() {
        Mono<Void> previous;
        synchronized (this) {
            if (!running) {
                return Mono.empty();
            }
            running = false;
            if (next != null) {
                next.dispose();
            }
            previous = inFlight;
        }
        return previous.then(Mono.defer(last));
    }

    /** Completes once no flush is in progress (for tests). */
    synchronized Mono<Void> idle() {
        return inFlight;
    }
}
