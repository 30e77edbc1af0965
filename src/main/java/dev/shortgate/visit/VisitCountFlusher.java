package dev.shortgate.visit;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shortgate.system.Causes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Writes what the {@link VisitTally} and {@link UniqueVisitors} gathered: every {@code counts-flush-interval} it
 * drains the tally, classifies each distinct entry on a worker thread (Yauaa for the user agent, GeoIP2 for the
 * network, both cached), and upserts the deltas per link and day ({@code link_stats}) and per dimension and label
 * ({@code visit_dim_stats}) in one transaction tagged with a flush id. Every {@code sketch-flush-interval} it
 * writes the changed unique-visitor sketches.
 *
 * <p>A flush that fails is retried with capped backoff until it is written, with the same flush id and the same
 * deltas, while new visits gather in the tally for the next flush: nothing is dropped during an outage, and a
 * retry of a flush whose commit was in fact applied is recognised by its id and not counted twice. Flushes never
 * overlap. On shutdown, after recording has stopped, a last flush writes everything left, for at most
 * {@code shutdown-flush-timeout}.
 */
final class VisitCountFlusher {

    private static final Logger log = LoggerFactory.getLogger(VisitCountFlusher.class);

    /** Tally entries per count transaction (each becomes at most one row per table and dimension). */
    static final int ENTRIES_PER_TRANSACTION = 2_000;
    /** Sketch rows per transaction. */
    static final int SKETCHES_PER_TRANSACTION = 500;

    /** Writes one flush. */
    interface CountWriter {
        /** The deltas of one flush, applied at most once per (writer, seq) however often this is retried. */
        Mono<Void> write(Flush flush);

        /** Sketch rows, written whole (idempotent). */
        Mono<Void> writeSketches(List<UniqueVisitors.Row> rows);
    }

    /** One flush: its id and the deltas it adds. */
    record Flush(byte[] writer, long seq, List<DayCount> days, List<DimCount> dims, List<OrphanCount> orphans) {
        /** A flush of link visits only. */
        Flush(byte[] writer, long seq, List<DayCount> days, List<DimCount> dims) {
            this(writer, seq, days, dims, List.of());
        }

        /** Visits and orphan visits whose counts this flush writes. */
        long visits() {
            return days.stream().mapToLong(DayCount::visits).sum()
                    + orphans.stream().mapToLong(OrphanCount::visits).sum();
        }
    }

    /** Orphan visits (bots included) and bot orphan visits of a UTC day and type. */
    record OrphanCount(LocalDate day, OrphanVisitType type, long visits, long botVisits) {}

    /** Visits (bots included) and bot visits of a link and UTC day. */
    record DayCount(String code, LocalDate day, long visits, long botVisits) {}

    /** Visits (bots included) and bot visits of a link, UTC day, dimension and label. */
    record DimCount(String code, LocalDate day, Dimension dimension, String label, long visits, long botVisits) {}

    private record DayKey(String code, long epochDay) implements Comparable<DayKey> {
        @Override
        public int compareTo(DayKey o) {
            int c = code.compareTo(o.code);
            return c != 0 ? c : Long.compare(epochDay, o.epochDay);
        }
    }

    private record DimKey(String code, long epochDay, Dimension dimension, String label) implements Comparable<DimKey> {
        @Override
        public int compareTo(DimKey o) {
            int c = code.compareTo(o.code); // the table's key order, so concurrent pods lock rows in one order
            if (c == 0) {
                c = Long.compare(epochDay, o.epochDay);
            }
            if (c == 0) {
                c = dimension.compareTo(o.dimension);
            }
            return c != 0 ? c : label.compareTo(o.label);
        }
    }

    /** The labels this pod kept for one link and day, per dimension (one map entry per link and day). */
    private static final class KeptLabels {
        @SuppressWarnings("unchecked")
        final Set<String>[] byDimension = new Set[Dimension.values().length];
    }

    private final VisitTally tally;
    private final UniqueVisitors sketches;
    private final VisitEnricher enricher;
    private final CountWriter writer;
    private final VisitProperties properties;
    private final Clock clock;
    private final Scheduler timer;
    private final Scheduler workers;
    private final byte[] writerId = new byte[8];
    private final AtomicLong seq = new AtomicLong();
    private final Cache<String, Boolean> botByAgent =
            Caffeine.newBuilder().maximumSize(10_000).build();
    private final Map<DayKey, KeptLabels> labels = new HashMap<>();
    private long labelsDay = Long.MIN_VALUE;
    private long lastSketchFlush;

    private final Counter flushed;
    private final Counter droppedShutdown;
    private final Counter droppedWriteFailed;
    private final Counter retries;
    private final Timer flushes;

    private volatile boolean running;
    private Disposable next;
    private Mono<Void> inFlight = Mono.empty();

    VisitCountFlusher(
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
        this.enricher = enricher;
        this.writer = writer;
        this.properties = properties;
        this.clock = clock;
        this.timer = timer;
        this.workers = workers;
        new SecureRandom().nextBytes(writerId);
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

    /**
     * Whether a visit with this agent is a bot, without parsing it on the caller's thread: the flusher's
     * classification of the agent when it has seen it, else what the agent looks like.
     */
    boolean isBot(String agent) {
        Boolean known = agent == null ? null : botByAgent.getIfPresent(agent);
        return known != null ? known : UserAgentParser.looksLikeBot(agent);
    }

    synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        lastSketchFlush = timer.now(TimeUnit.NANOSECONDS);
        schedule();
    }

    private synchronized void schedule() {
        if (running) {
            next = timer.schedule(this::tick, properties.countsFlushInterval().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private synchronized void tick() {
        if (!running) {
            return;
        }
        boolean sketchesDue = timer.now(TimeUnit.NANOSECONDS) - lastSketchFlush
                >= properties.sketchFlushInterval().toNanos();
        Mono<Void> cycle = cycle(sketchesDue).doFinally(signal -> schedule()).cache();
        inFlight = cycle.onErrorResume(e -> Mono.empty());
        cycle.subscribe(null, error -> log.error("Count flush failed unexpectedly", error));
    }

    /**
     * Stops flushing on the timer, waits for a flush in progress, then writes everything left (counts and
     * sketches). Completes when written, or when {@code shutdown-flush-timeout} has passed, counting what is left.
     */
    Mono<Void> stop() {
        return stop(properties.shutdownFlushTimeout());
    }

    /** {@link #stop()} within {@code limit}. */
    Mono<Void> stop(java.time.Duration limit) {
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
        return previous.then(Mono.defer(() -> cycle(true)))
                .timeout(limit, timer)
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

    /** One flush of the counts, then the sketches when due (or always on the last one). */
    Mono<Void> cycle(boolean withSketches) {
        Mono<Void> counts = flushCounts();
        if (!withSketches) {
            return counts;
        }
        return counts.then(Mono.defer(() -> {
            lastSketchFlush = timer.now(TimeUnit.NANOSECONDS);
            List<UniqueVisitors.Row> rows = sketches.changed(today());
            List<List<UniqueVisitors.Row>> chunks = new ArrayList<>();
            for (int from = 0; from < rows.size(); from += SKETCHES_PER_TRANSACTION) {
                chunks.add(rows.subList(from, Math.min(rows.size(), from + SKETCHES_PER_TRANSACTION)));
            }
            return Flux.fromIterable(chunks)
                    .concatMap(chunk -> written(writer.writeSketches(chunk)).onErrorResume(error -> {
                        log.error(
                                "Could not write {} unique-visitor sketches: {}",
                                chunk.size(),
                                Causes.root(error).toString());
                        return Mono.empty();
                    }))
                    .then();
        }));
    }

    private Mono<Void> flushCounts() {
        return Mono.defer(() -> Flux.fromIterable(chunks(tally.drain()))
                .concatMap(this::flushChunk)
                .then());
    }

    /**
     * The drained counts in chunks of whole links, each of about {@link #ENTRIES_PER_TRANSACTION} entries, in code
     * order: each chunk is one transaction with a flush id of its own, so a flush of many links never becomes a
     * transaction too big to finish within the write timeout, and a retry repeats only the chunk that failed.
     */
    static List<List<VisitTally.Count>> chunks(List<VisitTally.Count> counts) {
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

    private Mono<Void> flushChunk(List<VisitTally.Count> counts) {
        long start = System.nanoTime();
        long id = seq.incrementAndGet();
        return Mono.fromCallable(() -> flush(id, counts))
                .subscribeOn(workers)
                .flatMap(flush -> written(writer.write(flush)).thenReturn(flush))
                .doOnNext(flush -> {
                    tally.written(counts);
                    flushed.increment(flush.visits());
                    flushes.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                })
                .onErrorResume(WriteRetry::neverSucceeds, error -> {
                    long lost =
                            counts.stream().mapToLong(VisitTally.Count::visits).sum();
                    tally.written(counts);
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
            log.warn(
                    "Writing visit counts failed (attempt {}); retrying: {}",
                    signal.totalRetries() + 1,
                    Causes.root(signal.failure()).toString());
        });
    }

    /** Classifies the drained entries and sums them per link and day, and per dimension and label. */
    Flush flush(long id, List<VisitTally.Count> counts) {
        long today = today();
        if (today != labelsDay) {
            labels.keySet().removeIf(key -> key.epochDay() < today - 1);
            labelsDay = today;
        }
        Map<DayKey, long[]> days = new TreeMap<>();
        Map<DimKey, long[]> dims = new TreeMap<>();
        Map<DayKey, long[]> orphans = new TreeMap<>(); // keyed by the type's tally key and the day
        List<VisitTally.Count> biggestFirst = new ArrayList<>(counts);
        biggestFirst.sort((a, b) -> Long.compare(b.visits(), a.visits())); // the busiest labels get the free slots
        for (VisitTally.Count count : biggestFirst) {
            VisitTally.Facts facts = count.facts();
            long n = count.visits();
            boolean bot;
            String[] values = new String[Dimension.values().length];
            if (OrphanVisitType.ofTallyKey(facts.code()) != null) { // a day's and type's count, no dimensions
                bot = facts.kind() == VisitTally.Facts.DISTINCT
                        ? enricher.agent(facts.agent()).bot()
                        : facts.kind() == VisitTally.Facts.OTHER_BOT;
                add(orphans.computeIfAbsent(new DayKey(facts.code(), facts.epochDay()), k -> new long[2]), n, bot);
                continue;
            }
            if (facts.kind() == VisitTally.Facts.DISTINCT) {
                UserAgentParser.Parsed agent = enricher.agent(facts.agent());
                bot = agent.bot();
                if (facts.agent() != null) {
                    botByAgent.put(facts.agent(), bot);
                }
                values[Dimension.COUNTRY.ordinal()] =
                        enricher.country(count.address() != null ? count.address() : facts.network());
                values[Dimension.BROWSER.ordinal()] = agent.browser();
                values[Dimension.OS.ordinal()] = agent.os();
                values[Dimension.DEVICE_CLASS.ordinal()] = agent.deviceClass();
                values[Dimension.REFERRER_HOST.ordinal()] = facts.refererHost();
            } else {
                bot = facts.kind() == VisitTally.Facts.OTHER_BOT;
                java.util.Arrays.fill(values, Dimension.OTHER);
            }
            DayKey dayKey = new DayKey(facts.code(), facts.epochDay());
            add(days.computeIfAbsent(dayKey, k -> new long[2]), n, bot);
            KeptLabels kept = null;
            for (Dimension dimension : Dimension.values()) {
                String value = values[dimension.ordinal()];
                if (value != null) {
                    if (kept == null) {
                        kept = labels.computeIfAbsent(dayKey, k -> new KeptLabels());
                    }
                    String label = admit(kept, dimension, value);
                    add(
                            dims.computeIfAbsent(
                                    new DimKey(facts.code(), facts.epochDay(), dimension, label), k -> new long[2]),
                            n,
                            bot);
                }
            }
        }
        List<DayCount> dayCounts = new ArrayList<>(days.size());
        days.forEach((k, v) -> dayCounts.add(new DayCount(k.code(), LocalDate.ofEpochDay(k.epochDay()), v[0], v[1])));
        List<DimCount> dimCounts = new ArrayList<>(dims.size());
        dims.forEach((k, v) -> dimCounts.add(
                new DimCount(k.code(), LocalDate.ofEpochDay(k.epochDay()), k.dimension(), k.label(), v[0], v[1])));
        List<OrphanCount> orphanCounts = new ArrayList<>(orphans.size());
        orphans.forEach((k, v) -> orphanCounts.add(
                new OrphanCount(LocalDate.ofEpochDay(k.epochDay()), OrphanVisitType.ofTallyKey(k.code()), v[0], v[1])));
        orphanCounts.sort(java.util.Comparator.comparing(OrphanCount::day).thenComparing(c -> c.type().id));
        return new Flush(writerId, id, dayCounts, dimCounts, orphanCounts);
    }

    private static void add(long[] count, long n, boolean bot) {
        count[0] += n;
        if (bot) {
            count[1] += n;
        }
    }

    /** The label itself while this pod has kept fewer than {@code max-labels} for the link, day and dimension. */
    private String admit(KeptLabels labelsOfDay, Dimension dimension, String value) {
        String label = value.length() > 255 ? value.substring(0, 255) : value;
        Set<String> kept = labelsOfDay.byDimension[dimension.ordinal()];
        if (kept == null) {
            kept = new HashSet<>(4);
            labelsOfDay.byDimension[dimension.ordinal()] = kept;
        }
        if (kept.contains(label) || Dimension.OTHER.equals(label)) {
            return label;
        }
        if (kept.size() >= properties.maxLabels()) {
            return Dimension.OTHER;
        }
        kept.add(label);
        return label;
    }

    private long today() {
        return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toEpochDay();
    }

    /** This pod's writer id (flush ids are this and a sequence number). */
    byte[] writerId() {
        return writerId.clone();
    }

    /** Completes once no flush is in progress (for tests). */
    Mono<Void> idle() {
        synchronized (this) {
            return inFlight;
        }
    }
}
