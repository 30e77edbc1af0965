package dev.shortgate.visit.counts;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.system.database.ConflictRetry;
import dev.shortgate.system.problem.Causes;
import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.VisitProperties;
import dev.shortgate.visit.WriteRetry;
import dev.shortgate.visit.WriteTurns;
import dev.shortgate.visit.enrich.VisitEnricher;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Writes what the {@link VisitTally} and {@link UniqueVisitors} gathered: every {@code counts-flush-interval} it
 * drains the tally, has the {@link CountClassifier} classify and sum the entries on a worker thread, and upserts the
 * deltas per link and day ({@code link_stats}) and per dimension and label ({@code visit_dim_stats}) in one
 * transaction tagged with a flush id. Every {@code sketch-flush-interval} it writes the changed unique-visitor
 * sketches. This class owns the schedule, the retries and the shutdown flush; what a flush adds is the
 * classifier's.
 *
 * <p>A flush that fails is retried with capped backoff until it is written, with the same flush id and the same
 * deltas, while new visits gather in the tally for the next flush: nothing is dropped during an outage, and a
 * retry of a flush whose commit was in fact applied is recognised by its id and not counted twice. Flushes never
 * overlap. On shutdown, after recording has stopped, a last flush writes everything left, for at most
 * {@code shutdown-flush-timeout}.
 */
public final class VisitCountFlusher {

    private static final Logger log = LoggerFactory.getLogger(VisitCountFlusher.class);

    /** Tally entries per count transaction (each becomes at most one row per table and dimension). */
    public static final int ENTRIES_PER_TRANSACTION = 2_000;
    /** Sketch rows per transaction. */
    static final int SKETCHES_PER_TRANSACTION = 500;
    /** Sketch transactions after each scheduled count flush, at most (see {@link #cycle(boolean, int)}). */
    static final int SKETCH_CHUNKS_PER_CYCLE = 4;

    /** Writes one flush. */
    public interface CountWriter {
        /** The deltas of one flush, applied at most once per (writer, seq) however often this is retried. */
        Mono<Void> write(Flush flush);

        /** Sketch rows, written whole (idempotent). */
        Mono<Void> writeSketches(List<UniqueVisitors.Row> rows);

        /** Links whose visits were deleted at or after {@code since} ({@link VisitDeletion}), and when. */
        default Flux<Reset> resetsSince(Instant since) {
            return Flux.empty();
        }

        /** Deletes the sketch rows of these keys (their sketches are {@code null}). */
        default Mono<Void> deleteSketches(List<UniqueVisitors.Row> keys) {
            return Mono.empty();
        }
    }

    /** The visits of a link were deleted at this instant. */
    public record Reset(String code, Instant at) {}

    /**
     * How far back each look for deletions starts before the previous one, so a deletion whose clock ran a little
     * behind this pod's is still seen (seeing one twice is harmless).
     */
    static final Duration RESET_MARGIN = Duration.ofMinutes(1);

    /** One flush: its id and the deltas it adds. */
    public record Flush(byte[] writer, long seq, List<DayCount> days, List<DimCount> dims, List<OrphanCount> orphans) {
        /** A flush of link visits only. */
        Flush(byte[] writer, long seq, List<DayCount> days, List<DimCount> dims) {
            this(writer, seq, days, dims, List.of());
        }

        /** Visits and orphan visits whose counts this flush writes. */
        public long visits() {
            return days.stream().mapToLong(DayCount::visits).sum()
                    + orphans.stream().mapToLong(OrphanCount::visits).sum();
        }
    }

    /**
     * Orphan visits (bots included) and bot orphan visits of a UTC day, type and domain ({@code domainId} 0: the
     * default domain).
     */
    public record OrphanCount(LocalDate day, OrphanVisitType type, int domainId, long visits, long botVisits) {}

    /** Visits (bots included) and bot visits of a link and UTC day. */
    public record DayCount(String code, LocalDate day, long visits, long botVisits) {}

    /** Visits (bots included) and bot visits of a link, UTC day, dimension and label. */
    public record DimCount(
            String code, LocalDate day, Dimension dimension, String label, long visits, long botVisits) {}

    private final VisitTally tally;
    private final UniqueVisitors sketches;
    private final CountWriter writer;
    private final VisitProperties properties;
    private final Clock clock;
    private final Scheduler timer;
    private final Scheduler workers;
    private final MeterRegistry registry;
    private final byte[] writerId = new byte[8];
    private final AtomicLong seq = new AtomicLong();
    private final CountClassifier classifier;
    /** Changed sketches taken and not yet written; only the cycles use it, and they never overlap. */
    private final ArrayDeque<UniqueVisitors.DaySketch> sketchesToWrite = new ArrayDeque<>();

    private long lastSketchFlush;
    private Instant lastResetCheck;

    private final Counter flushed;
    private final Counter droppedShutdown;
    private final Counter droppedWriteFailed;
    private final Counter retries;
    private final Timer flushes;

    private final CountFlushSchedule schedule;
    /** One chunk at a time while the flush keeps within its interval. */
    private final WriteTurns turns;

    private static final long IDLE = Long.MIN_VALUE;
    /** When the count flush in progress began ({@link #timer} nanoseconds), or {@link #IDLE}. */
    private volatile long cycleStarted = IDLE;
    /** The last count flush ran longer than its interval: the next one overlaps its chunks from its start. */
    private volatile boolean lastOverran;
    /** The last flush of shutdown is running: the counts come first. */
    private volatile boolean stopping;

    public VisitCountFlusher(
            VisitTally tally,
            UniqueVisitors sketches,
            VisitEnricher enricher,
            CountWriter writer,
            VisitProperties properties,
            Clock clock,
            Scheduler timer,
            Scheduler workers,
            MeterRegistry registry) {
        this.tally = tally;
        this.sketches = sketches;
        this.writer = writer;
        this.properties = properties;
        this.clock = clock;
        this.timer = timer;
        this.workers = workers;
        this.registry = registry;
        this.classifier = new CountClassifier(enricher, properties.maxLabels(), clock);
        this.schedule =
                new CountFlushSchedule(this::scheduled, () -> cycle(true), properties.countsFlushInterval(), timer);
        this.turns = new WriteTurns(timer, () -> lastOverran || behind());
        new SecureRandom().nextBytes(writerId);
        this.lastResetCheck = clock.instant();
        Gauge.builder("shortgate.visits.counts.pending", tally, VisitTally::pending)
                .description("Visits counted in memory and not yet written to the aggregates")
                .register(registry);
        this.flushed = Counter.builder("shortgate.visits.counts.written")
                .description("Visits whose counts were written to the aggregates")
                .register(registry);
        this.droppedShutdown = dropped(registry, "shutdown");
        this.droppedWriteFailed = dropped(registry, "write_failed");
        this.retries = Counter.builder("shortgate.visits.write.retries")
                .tag("path", "counts")
                .description("Visit writes tried again after a failure or a timeout")
                .register(registry);
        this.flushes = Timer.builder("shortgate.visits.counts.flush")
                .description("Time to write one flush of counts, retries included")
                .register(registry);
    }

    private static Counter dropped(MeterRegistry registry, String reason) {
        return Counter.builder("shortgate.visits.counts.dropped")
                .tag("reason", reason)
                .description("Visits whose counts could not be written: shutdown gave up, or the database "
                        + "rejected the statement")
                .register(registry);
    }

    /** Whether a visit with this agent is a bot, without parsing it here ({@link CountClassifier#isBot}). */
    public boolean isBot(String agent) {
        return classifier.isBot(agent);
    }

    public synchronized void start() {
        if (!schedule.isRunning()) {
            lastSketchFlush = timer.now(TimeUnit.NANOSECONDS);
            schedule.start();
        }
    }

    /**
     * A scheduled flush: the counts; then, once {@code sketch-flush-interval} has passed, a look for deleted visits
     * and the changed sketches taken for writing; then at most {@link #SKETCH_CHUNKS_PER_CYCLE} transactions of the
     * sketches taken and not yet written.
     */
    private Mono<Void> scheduled() {
        boolean due = timer.now(TimeUnit.NANOSECONDS) - lastSketchFlush
                >= properties.sketchFlushInterval().toNanos();
        return cycle(due, SKETCH_CHUNKS_PER_CYCLE);
    }

    /**
     * Stops flushing on the timer, waits for a flush in progress, then writes everything left (counts and
     * sketches). Completes when written, or when {@code limit} has passed, counting what is left.
     */
    public Mono<Void> stop(Duration limit) {
        return Mono.defer(() -> {
                    stopping = true;
                    return schedule.stop();
                })
                .timeout(limit, timer)
                .doFinally(signal -> stopping = false)
                .onErrorResume(error -> {
                    long left = tally.pending();
                    droppedShutdown.increment(left);
                    log.error(
                            "Shutdown gave up writing the counts of {} visits after {}: {}",
                            left,
                            limit,
                            Causes.root(error).toString());
                    return Mono.empty();
                });
    }

    /** One flush of the counts, then every changed sketch when {@code withSketches} (the last flush). */
    Mono<Void> cycle(boolean withSketches) {
        return cycle(withSketches, withSketches ? Integer.MAX_VALUE : 0);
    }

    /**
     * One flush of the counts; then, when {@code takeSketches}, a look for deleted visits and the changed sketches
     * taken for writing; then at most {@code sketchChunks} transactions of the sketches taken and not yet written. A
     * pod that saw 100,000 links has as many changed sketches every {@code sketch-flush-interval}: written in slices,
     * they never hold up the counts' next flush for long (the counts gather in the tally meanwhile), and each is
     * serialized only when its transaction is built.
     */
    private Mono<Void> cycle(boolean takeSketches, int sketchChunks) {
        Mono<Void> counts = flushCounts();
        if (takeSketches) {
            counts = counts.then(forgetDeleted()).then(Mono.fromRunnable(() -> {
                lastSketchFlush = timer.now(TimeUnit.NANOSECONDS);
                long today =
                        LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toEpochDay();
                sketchesToWrite.addAll(sketches.dirty(today)); // never one twice: bounded by the links
            }));
        }
        return counts.then(Mono.defer(() -> writeSketches(sketchChunks)));
    }

    /** Writes up to {@code chunks} transactions of the sketches taken and not yet written, one after the other. */
    private Mono<Void> writeSketches(int chunks) {
        return Flux.<List<UniqueVisitors.Row>>generate(sink -> {
                    List<UniqueVisitors.Row> rows = new ArrayList<>(SKETCHES_PER_TRANSACTION);
                    while (rows.size() < SKETCHES_PER_TRANSACTION && !sketchesToWrite.isEmpty()) {
                        UniqueVisitors.Row row = UniqueVisitors.row(sketchesToWrite.poll());
                        if (row != null) { // null: its visits were deleted since it was taken
                            rows.add(row);
                        }
                    }
                    if (rows.isEmpty()) {
                        sink.complete();
                    } else {
                        sink.next(rows);
                    }
                })
                .take(chunks)
                .concatMap(
                        rows -> written(writer.writeSketches(rows)).onErrorResume(error -> {
                            log.error(
                                    "Could not write {} unique-visitor sketches: {}",
                                    rows.size(),
                                    Causes.root(error).toString());
                            return Mono.empty();
                        }),
                        0)
                .then();
    }

    /**
     * Drops this pod's sketches of links whose visits another pod deleted since the last look (those started before
     * the deletion), and deletes the rows they wrote: a sketch is written whole, so one started before a deletion
     * would otherwise bring the deleted visitors back. One query per {@code sketch-flush-interval}.
     */
    private Mono<Void> forgetDeleted() {
        return Mono.defer(() -> {
            Instant now = clock.instant();
            return writer.resetsSince(lastResetCheck.minus(RESET_MARGIN))
                    .concatMap(reset -> {
                        List<UniqueVisitors.Row> gone =
                                sketches.forget(reset.code(), reset.at().toEpochMilli());
                        return gone.isEmpty() ? Mono.<Void>empty() : writer.deleteSketches(gone);
                    })
                    .then(Mono.fromRunnable(() -> lastResetCheck = now))
                    .onErrorResume(error -> {
                        log.warn(
                                "Could not look for deleted visits; trying again at the next sketch flush: {}",
                                Causes.root(error).toString());
                        return Mono.empty();
                    })
                    .then();
        });
    }

    /**
     * Drains the tally and writes it in chunks: classified one at a time (the classifier is not thread-safe), written
     * one at a time while the flush keeps within its interval, and up to {@code counts-write-concurrency} at once
     * while it is {@link #behind()} or when the flush before it was ({@link WriteTurns}): under a load the database
     * cannot take one at a time, every flush overlaps from its start. Chunks hold whole links in code order, so two
     * of them never upsert the same link's rows; the orphan rows they may share are locked in one table and key order
     * by every transaction, so they wait for each other but cannot deadlock.
     */
    private Mono<Void> flushCounts() {
        return Mono.defer(() -> {
            List<List<VisitTally.Count>> chunks = chunks(tally.drain());
            if (chunks.isEmpty()) {
                return Mono.<Void>empty();
            }
            cycleStarted = timer.now(TimeUnit.NANOSECONDS);
            return Flux.fromIterable(chunks)
                    .concatMap(this::classified)
                    .flatMap(
                            chunk -> turns.inTurn(Mono.defer(() -> flushChunk(chunk))),
                            properties.countsWriteConcurrency())
                    .then()
                    .doFinally(signal -> {
                        lastOverran = behind();
                        cycleStarted = IDLE;
                    });
        });
    }

    /**
     * Whether the counts are behind: a count flush has been running for longer than {@code counts-flush-interval}
     * (the database does not keep up with the counts), or the last flush of shutdown is running. The raw-row writer
     * then writes one batch at a time, so the counts get the database first; raw rows shed, counted, if they must.
     * Any thread may call this.
     */
    public boolean behind() {
        long started = cycleStarted;
        return stopping
                || (started != IDLE
                        && timer.now(TimeUnit.NANOSECONDS) - started
                                > properties.countsFlushInterval().toNanos());
    }

    /**
     * The drained counts in chunks of whole links, each of about {@link #ENTRIES_PER_TRANSACTION} entries, in code
     * order: each chunk is one transaction with a flush id of its own, so a flush of many links never becomes a
     * transaction too big to finish within the write timeout, and a retry repeats only the chunk that failed.
     */
    public static List<List<VisitTally.Count>> chunks(List<VisitTally.Count> counts) {
        Map<String, List<VisitTally.Count>> byCode = new TreeMap<>();
        for (VisitTally.Count count : counts) {
            byCode.computeIfAbsent(count.facts().code(), c -> new ArrayList<>()).add(count);
        }
        List<List<VisitTally.Count>> chunks = new ArrayList<>();
        List<VisitTally.Count> chunk = new ArrayList<>();
        for (List<VisitTally.Count> link : byCode.values()) {
            if (!chunk.isEmpty() && chunk.size() + link.size() > ENTRIES_PER_TRANSACTION) {
                chunks.add(chunk);
                chunk = new ArrayList<>();
            }
            chunk.addAll(link);
        }
        if (!chunk.isEmpty()) {
            chunks.add(chunk);
        }
        return chunks;
    }

    /** A chunk's visits per link, its flush (ids and deltas), and when its flush began. */
    private record Classified(VisitTally.Visits visits, Flush flush, long start) {}

    /**
     * Classifies a chunk, and lets its drained counts go: from here on only its deltas and its visits per link are
     * held, so a chunk waiting to be written keeps no entry, agent or address alive.
     */
    private Mono<Classified> classified(List<VisitTally.Count> counts) {
        return Mono.fromCallable(() -> {
                    long start = System.nanoTime();
                    Flush flush = classifier.flush(writerId, seq.incrementAndGet(), counts);
                    VisitTally.Visits visits = VisitTally.Visits.of(counts);
                    counts.clear();
                    return new Classified(visits, flush, start);
                })
                .subscribeOn(workers);
    }

    private Mono<Void> flushChunk(Classified chunk) {
        VisitTally.Visits visits = chunk.visits();
        Flush flush = chunk.flush();
        return written(writer.write(flush))
                .then(Mono.fromRunnable(() -> {
                    tally.written(visits);
                    flushed.increment(flush.visits());
                    flushes.record(System.nanoTime() - chunk.start(), TimeUnit.NANOSECONDS);
                }))
                .onErrorResume(WriteRetry::neverSucceeds, error -> {
                    long lost = visits.total();
                    tally.written(visits);
                    droppedWriteFailed.increment(lost);
                    log.error(
                            "Dropped the counts of {} visits: the database rejected the flush: {}",
                            lost,
                            Causes.root(error).toString());
                    return Mono.empty();
                })
                .then();
    }

    private Mono<Void> written(Mono<Void> attempt) {
        return WriteRetry.untilWritten(attempt, properties, timer, signal -> {
            retries.increment();
            ConflictRetry.seen(registry, "visit_flush", signal.failure());
            log.warn(
                    "Writing visit counts failed (attempt {}); retrying: {}",
                    signal.totalRetries() + 1,
                    Causes.root(signal.failure()).toString());
        });
    }

    /** This pod's writer id (flush ids are this and a sequence number). */
    byte[] writerId() {
        return writerId.clone();
    }

    /** Completes once no flush is in progress (for tests). */
    Mono<Void> idle() {
        return schedule.idle();
    }
}
