package dev.shortgate.visit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Turns at the database for one kind of visit write: one write at a time while the writes keep up, more at once
 * (up to the caller's own bound, a {@code flatMap}'s concurrency) only while {@code overlap} says they are behind.
 * The database then gets a steady trickle of transactions instead of bursts of several at once: on a host whose
 * cores it shares with the pods, one write at a time took a third off the redirect tail (docs/performance.md, "One
 * visit write at a time while the writes keep up"). A write waiting for its turn looks again every {@link #POLL}.
 */
public final class WriteTurns {

    /** How often a write waiting for its turn looks again. */
    public static final Duration POLL = Duration.ofMillis(20);

    private final AtomicInteger writing = new AtomicInteger();
    private final Scheduler timer;
    private final BooleanSupplier overlap;

    /**
     * @param timer   the scheduler a waiting write polls on
     * @param overlap whether a write may start while another one runs; asked each time a write looks for its turn
     */
    public WriteTurns(Scheduler timer, BooleanSupplier overlap) {
        this.timer = timer;
        this.overlap = overlap;
    }

    /**
     * Completes, once this write may start, with its release: run it when the write ends, however it ends (running
     * it again does nothing). Cancelled while waiting, it takes no turn.
     */
    public Mono<Runnable> take() {
        return Mono.defer(() -> mayStart()
                ? Mono.just(release())
                : Flux.interval(POLL, timer).filter(tick -> mayStart()).next().map(tick -> release()));
    }

    /**
     * Runs {@code write} once it has its turn, and gives the turn back as soon as it ends, however it ends (before its
     * end reaches the caller, so the next write may start at once).
     */
    public <T> Mono<T> inTurn(Mono<T> write) {
        return take().flatMap(release -> write.doOnTerminate(release).doOnCancel(release));
    }

    /** Writes running now. */
    public int writing() {
        return writing.get();
    }

    private boolean mayStart() {
        if (writing.compareAndSet(0, 1)) {
            return true;
        }
        if (overlap.getAsBoolean()) {
            writing.incrementAndGet();
            return true;
        }
        return false;
    }

    private Runnable release() {
        AtomicBoolean held = new AtomicBoolean(true);
        return () -> {
            if (held.compareAndSet(true, false)) {
                writing.decrementAndGet();
            }
        };
    }
}
