package dev.shortgate.visit.intake;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.shortgate.system.database.ConflictRetry;
import dev.shortgate.system.problem.Causes;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.VisitProperties;
import dev.shortgate.visit.WriteRetry;
import dev.shortgate.visit.WriteTurns;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;

/**
 * The {@link VisitRecorder}'s raw-row path, which sheds load: a bounded buffer of raw visit rows that drains into
 * batches for the {@link VisitRecorder.BatchWriter}. At most {@code buffer-capacity} rows are held at once, counting
 * those queued, waiting in a batch and being written; a row that finds the buffer full is dropped and counted
 * ({@code shortgate.visits.dropped{reason="buffer_full"}}). Batches hold up to {@code batch-size} rows or
 * {@code flush-interval} of waiting ({@code bufferTimeout}). One batch is written at a time while the writes keep
 * up; while at least two batches' worth of rows wait beyond those being written, up to {@code write-concurrency} of
 * them are ({@link WriteTurns}: the database gets a steady trickle, not bursts, until it must catch up). A failed
 * batch keeps its place in the buffer and is retried with capped backoff until it is written, so a database outage
 * fills the buffer and sheds new rows, never memory. On shutdown it writes what it holds, for a bounded time, and
 * counts the rows still held then as dropped ({@code shutdown}).
 *
 * <p>The counts come first: while they are behind ({@code VisitCountFlusher#behind()}: a count flush runs
 * longer than its interval, or shutdown's last one runs), a batch starts only when no other one is being written,
 * however many wait, so the count transactions get the database's time, and raw rows, which may shed, are the ones
 * that do.
 */
final class RawVisitBuffer {

    private static final Logger log = LoggerFactory.getLogger(RawVisitBuffer.class);

    private final VisitProperties properties;
    private final VisitRecorder.BatchWriter writer;
    private final Scheduler timer;
    private final MeterRegistry registry;
    private final BooleanSupplier countsBehind;
    /** One batch at a time while the writes keep up (see {@link #behind()}). */
    private final WriteTurns turns;
    /** Rows waiting beyond those being written that make the writes {@link #behind()}. */
    private final int backlog;

    private final AtomicInteger held = new AtomicInteger();
    private final Sinks.Empty<Void> drained = Sinks.empty();
    private volatile FluxSink<RawVisit> sink;
    private volatile boolean open;
    private Disposable pipeline;

    private final Counter written;
    private final Counter droppedBufferFull;
    private final Counter droppedWriteFailed;
    private final Counter droppedShutdown;
    private final Counter retries;
    private final DistributionSummary batchSizes;
    private final Timer flushes;

    /** @param countsBehind whether the counts are behind, so raw batches are written one at a time */
    RawVisitBuffer(
            VisitProperties properties,
            VisitRecorder.BatchWriter writer,
            Scheduler timer,
            MeterRegistry registry,
            BooleanSupplier countsBehind) {
        this.properties = properties;
        this.countsBehind = countsBehind;
        this.writer = writer;
        this.timer = timer;
        this.registry = registry;
        this.backlog = Math.max(1, Math.min(2 * properties.batchSize(), properties.bufferCapacity() / 2));
        this.turns = new WriteTurns(timer, () -> !countsBehind.getAsBoolean() && behind());
        Gauge.builder("shortgate.visits.buffered", held, AtomicInteger::get)
                .description("Raw visit rows held in memory: queued, batched or being written")
                .register(registry);
        this.written = Counter.builder("shortgate.visits.written")
                .description("Raw visit rows written to the database")
                .register(registry);
        this.droppedBufferFull = dropped(registry, "buffer_full");
        this.droppedWriteFailed = dropped(registry, "write_failed");
        this.droppedShutdown = dropped(registry, "shutdown");
        this.retries = Counter.builder("shortgate.visits.write.retries")
                .tag("path", "raw")
                .description("Visit writes tried again after a failure or a timeout")
                .register(registry);
        this.batchSizes = DistributionSummary.builder("shortgate.visits.batch.size")
                .description("Raw visit rows per written batch")
                .register(registry);
        this.flushes = Timer.builder("shortgate.visits.flush")
                .description("Time to write one batch of raw visit rows, retries included")
                .register(registry);
    }

    /** The counter of raw rows not written for {@code reason} (the recorder counts its own reasons in it too). */
    static Counter dropped(MeterRegistry registry, String reason) {
        return Counter.builder("shortgate.visits.dropped")
                .tag("reason", reason)
                .description("Raw visit rows not written: buffer full, rejected by the database, still held at "
                        + "shutdown, or a request whose facts could not be read")
                .register(registry);
    }

    /** Opens the buffer and starts writing its batches. */
    void start() {
        // Flux.create's sink is safe for many producers at once (every event loop calls record); the capacity is
        // enforced by `held`, so its own queue never holds more than buffer-capacity visits.
        Flux<RawVisit> source = Flux.create(created -> sink = created, FluxSink.OverflowStrategy.BUFFER);
        pipeline = VisitRecorder.batches(source, properties.batchSize(), properties.flushInterval(), timer)
                .flatMap(this::write, properties.writeConcurrency())
                .subscribe(
                        null,
                        error -> {
                            log.error("Visit pipeline stopped on an unexpected error", error);
                            drained.tryEmitEmpty();
                        },
                        drained::tryEmitEmpty);
        open = true;
    }

    /** Puts a raw row in the buffer; {@code false} (and a counted drop) when the buffer is full or closed. */
    boolean offer(RawVisit visit) {
        FluxSink<RawVisit> target = sink;
        if (!open || target == null) {
            droppedShutdown.increment();
            return false;
        }
        if (held.incrementAndGet() > properties.bufferCapacity()) {
            held.decrementAndGet();
            droppedBufferFull.increment();
            return false;
        }
        target.next(visit);
        return true;
    }

    /** Raw rows held now: queued, batched or being written. */
    int held() {
        return held.get();
    }

    private Mono<Void> write(List<RawVisit> batch) {
        int size = batch.size();
        long start = System.nanoTime();
        return turns.inTurn(Mono.defer(() -> WriteRetry.untilWritten(writer.write(batch), properties, timer, signal -> {
                    retries.increment();
                    ConflictRetry.seen(registry, "visit_batch", signal.failure());
                    log.warn(
                            "Writing {} visits failed (attempt {}); retrying: {}",
                            size,
                            signal.totalRetries() + 1,
                            Causes.root(signal.failure()).toString());
                })))
                .then(Mono.fromRunnable(() -> {
                    written.increment(size);
                    batchSizes.record(size);
                }))
                .onErrorResume(error -> {
                    droppedWriteFailed.increment(size);
                    log.error(
                            "Dropped {} visits: the database rejected them: {}",
                            size,
                            Causes.root(error).toString());
                    return Mono.empty();
                })
                .doFinally(signal -> {
                    flushes.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                    if (signal != SignalType.CANCEL) {
                        held.addAndGet(-size); // a cancelled batch was counted as a shutdown drop already
                    }
                })
                .then();
    }

    /**
     * Whether the raw writes are behind: at least two batches' worth of rows (or half the buffer, if that is less)
     * wait beyond those being written (each counted as a full batch). Only then, and only while the counts keep up,
     * does a batch start while another one is being written.
     */
    private boolean behind() {
        return held.get() - (long) turns.writing() * properties.batchSize() >= backlog;
    }

    /** Refuses rows from now on: each one offered is counted as a shutdown drop. */
    void close() {
        open = false;
    }

    /**
     * Ends the buffer and completes once the rows it held are written, or after {@code limit}: the rows still held
     * then are counted as dropped and their writes cancelled.
     */
    Mono<Void> drain(Duration limit) {
        sink.complete();
        return drained.asMono().timeout(limit, timer).onErrorResume(timeout -> {
            int left = held.getAndSet(0);
            droppedShutdown.increment(left);
            log.error(
                    "Shutdown flush timed out after {}; dropped {} visits still held",
                    properties.shutdownFlushTimeout(),
                    left);
            pipeline.dispose();
            return Mono.empty();
        });
    }
}
