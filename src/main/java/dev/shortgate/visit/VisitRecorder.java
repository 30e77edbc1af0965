package dev.shortgate.visit;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.system.Causes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;

/**
 * Takes visits from the redirect path, without ever making a redirect wait or fail, and sends each down two paths.
 * Orphan visits (GETs that reached no link, {@link #recordOrphan}) take the same two paths, counted per UTC day and
 * {@link OrphanVisitType} only.
 *
 * <p><b>Counts never drop.</b> Every visit is counted at once in the pod's {@link VisitTally} (per link, UTC day and
 * what its dimensions follow from) and in its {@link UniqueVisitors} sketch; the {@link VisitCountFlusher} writes
 * the deltas every {@code counts-flush-interval}. Memory follows the active links, not the traffic.
 *
 * <p><b>Raw rows shed load.</b> The visit's raw row is offered to a bounded buffer: at most {@code buffer-capacity}
 * are held at once, counting those queued, waiting in a batch and being written. A row that finds the buffer full
 * is dropped and counted ({@code shortgate.visits.dropped{reason="buffer_full"}}). The buffer drains into batches of
 * up to {@code batch-size} rows or {@code flush-interval} of waiting ({@code bufferTimeout}); {@code
 * write-concurrency} batches are written at a time. A failed batch keeps its place in the buffer and is retried
 * with capped backoff until it is written (a database outage fills the buffer and sheds new rows, never memory).
 *
 * <p>As a {@link SmartLifecycle} it starts before the web server and stops after it: on shutdown the server first
 * finishes its requests (graceful shutdown); then recording closes, waiting for visits being recorded at that
 * moment, and both paths write what they hold, for at most {@code shutdown-flush-timeout}. Raw rows still held then
 * are counted as dropped ({@code shutdown}).
 */
public final class VisitRecorder implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(VisitRecorder.class);

    /** After the web server has stopped (it stops at {@link WebServerApplicationContext#START_STOP_LIFECYCLE_PHASE}). */
    static final int PHASE = WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 1024;

    private static final long SECONDS_PER_DAY = 86_400;

    /** How long recording must see no visit before shutdown closes it. */
    static final Duration QUIET = Duration.ofMillis(100);

    /** Writes one batch of raw rows, or fails; retries and counting are the recorder's. */
    @FunctionalInterface
    interface BatchWriter {
        Mono<Void> write(List<RawVisit> batch);
    }

    private final VisitProperties properties;
    private final ClientIpResolver clientIps;
    private final VisitId ids;
    private final BatchWriter writer;
    private final VisitTally tally;
    private final UniqueVisitors uniques;
    private final VisitCountFlusher counts;
    private final Clock clock;
    private final Scheduler timer;

    private final AtomicInteger held = new AtomicInteger();
    /**
     * Visits being recorded right now; shutdown waits for them before closing the buffer. Striped, since every event
     * loop changes it; a visit raises it before it reads {@code accepting}, so once shutdown has cleared
     * {@code accepting} and then seen a sum of 0, no visit can still reach the buffer.
     */
    private final LongAdder recording = new LongAdder();

    private final Counter counted;
    private final Counter orphansCounted;
    private final Counter written;
    private final Counter droppedBufferFull;
    private final Counter droppedWriteFailed;
    private final Counter droppedShutdown;
    private final Counter rejectedUnreadable;
    private final Counter retries;
    private final DistributionSummary batchSizes;
    private final Timer flushes;

    private volatile FluxSink<RawVisit> sink;
    private volatile boolean accepting;
    private volatile boolean running;
    private Disposable pipeline;
    private final Sinks.Empty<Void> drained = Sinks.empty();

    VisitRecorder(
            VisitProperties properties,
            ClientIpResolver clientIps,
            VisitId ids,
            BatchWriter writer,
            VisitTally tally,
            UniqueVisitors uniques,
            VisitCountFlusher counts,
            Clock clock,
            Scheduler timer,
            MeterRegistry registry) {
        this.properties = properties;
        this.clientIps = clientIps;
        this.ids = ids;
        this.writer = writer;
        this.tally = tally;
        this.uniques = uniques;
        this.counts = counts;
        this.clock = clock;
        this.timer = timer;
        Gauge.builder("shortgate.visits.buffered", held, AtomicInteger::get)
                .description("Raw visit rows held in memory: queued, batched or being written")
                .register(registry);
        this.counted = Counter.builder("shortgate.visits.counted")
                .description("Visits counted (every redirect answered to a GET, bots included)")
                .register(registry);
        this.orphansCounted = Counter.builder("shortgate.visits.orphans.counted")
                .description("Orphan visits counted (GETs on the traffic port that reached no link, bots included)")
                .register(registry);
        this.written = Counter.builder("shortgate.visits.written")
                .description("Raw visit rows written to the database")
                .register(registry);
        this.droppedBufferFull = dropped(registry, "buffer_full");
        this.droppedWriteFailed = dropped(registry, "write_failed");
        this.droppedShutdown = dropped(registry, "shutdown");
        this.rejectedUnreadable = dropped(registry, "unreadable");
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

    private static Counter dropped(MeterRegistry registry, String reason) {
        return Counter.builder("shortgate.visits.dropped")
                .tag("reason", reason)
                .description("Raw visit rows not written: buffer full, rejected by the database, still held at "
                        + "shutdown, or a request whose facts could not be read")
                .register(registry);
    }

    /**
     * Records a visit to {@code code} made by {@code request}. Takes microseconds, never blocks and never throws.
     * Call it for GET only: HEAD requests are not visits.
     */
    public void record(ServerRequest request, String code) {
        if (!properties.enabled()) {
            return;
        }
        InetAddress ip;
        String agent;
        String referer;
        try {
            HttpHeaders headers = request.headers().asHttpHeaders();
            ip = clientIps.resolve(request);
            agent = headers.getFirst(HttpHeaders.USER_AGENT);
            referer = headers.getFirst(HttpHeaders.REFERER);
        } catch (RuntimeException e) {
            rejectedUnreadable.increment();
            log.debug("Could not read a visit's facts: {}", e.toString());
            return;
        }
        record(code, ip, agent, referer);
    }

    /**
     * Records a visit from plain facts: the short code, the client address (as {@link ClientIpResolver} decided
     * it; {@code null} when unknown), and the raw {@code User-Agent} and {@code Referer} header values (either may
     * be {@code null}; they are cut to their bounds here). For the redirect path's fast lane: cheap, allocation-light,
     * never blocks and never throws. Call it for GET only, once the redirect is decided.
     */
    public void record(String code, InetAddress clientIp, String userAgent, String referer) {
        if (!properties.enabled()) {
            return;
        }
        recording.increment();
        try {
            if (!accepting) {
                droppedShutdown.increment();
                return;
            }
            Instant at = clock.instant();
            long day = Math.floorDiv(at.getEpochSecond(), SECONDS_PER_DAY);
            String agent = truncate(userAgent, properties.userAgentMaxLength());
            String ref = truncate(referer, properties.refererMaxLength());
            tally.add(
                    code,
                    day,
                    agent,
                    clientIp == null ? null : IpAnonymizer.anonymise(clientIp),
                    VisitTally.refererHost(ref),
                    clientIp);
            uniques.add(code, day, clientIp, agent, counts.isBot(agent));
            counted.increment();
            offer(new RawVisit(ids.next(at), code, at, clientIp, agent, ref));
        } catch (RuntimeException e) {
            rejectedUnreadable.increment();
            log.debug("Could not take a visit: {}", e.toString());
        } finally {
            recording.decrement();
        }
    }

    /**
     * Records an orphan visit: a GET on the traffic port that reached no link. It takes the same path as a visit,
     * with the same costs: counted at once in the tally (per UTC day and type only, never per path) and its raw row
     * offered to the same bounded buffer, shed and counted like a visit's when the buffer is full. Nothing is
     * joined, parsed or looked up here. Cheap, never blocks, never throws.
     *
     * @param type     what was asked for
     * @param path     the path asked for without its leading {@code /} (for an invalid short URL, the code)
     * @param rawQuery the raw query string, or {@code null}
     */
    public void recordOrphan(
            OrphanVisitType type,
            String path,
            String rawQuery,
            InetAddress clientIp,
            String userAgent,
            String referer) {
        if (!properties.enabled()) {
            return;
        }
        recording.increment();
        try {
            if (!accepting) {
                droppedShutdown.increment();
                return;
            }
            Instant at = clock.instant();
            long day = Math.floorDiv(at.getEpochSecond(), SECONDS_PER_DAY);
            String agent = truncate(userAgent, properties.userAgentMaxLength());
            tally.add(type.tallyKey, day, agent, null, null, null);
            orphansCounted.increment();
            offer(new RawVisit(
                    ids.next(at),
                    path,
                    at,
                    clientIp,
                    agent,
                    truncate(referer, properties.refererMaxLength()),
                    type,
                    rawQuery));
        } catch (RuntimeException e) {
            rejectedUnreadable.increment();
            log.debug("Could not take an orphan visit: {}", e.toString());
        } finally {
            recording.decrement();
        }
    }

    /** Puts a raw row in the buffer; {@code false} (and a counted drop) when the buffer is full or closed. */
    boolean offer(RawVisit visit) {
        FluxSink<RawVisit> target = sink;
        if (!accepting || target == null) {
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

    /** Batches of at most {@code maxSize} items, each emitted when full or {@code maxTime} after its first item. */
    static <T> Flux<List<T>> batches(Flux<T> source, int maxSize, Duration maxTime, Scheduler timer) {
        return source.bufferTimeout(maxSize, maxTime, timer, true);
    }

    @Override
    public synchronized void start() {
        if (running || !properties.enabled()) {
            return;
        }
        // Flux.create's sink is safe for many producers at once (every event loop calls record); the capacity is
        // enforced by `held`, so its own queue never holds more than buffer-capacity visits.
        Flux<RawVisit> source = Flux.create(created -> sink = created, FluxSink.OverflowStrategy.BUFFER);
        pipeline = batches(source, properties.batchSize(), properties.flushInterval(), timer)
                .flatMap(this::write, properties.writeConcurrency())
                .subscribe(
                        null,
                        error -> {
                            log.error("Visit pipeline stopped on an unexpected error", error);
                            drained.tryEmitEmpty();
                        },
                        drained::tryEmitEmpty);
        counts.start();
        accepting = true;
        running = true;
    }

    private Mono<Void> write(List<RawVisit> batch) {
        int size = batch.size();
        long start = System.nanoTime();
        return WriteRetry.untilWritten(writer.write(batch), properties, timer, signal -> {
                    retries.increment();
                    log.warn(
                            "Writing {} visits failed (attempt {}); retrying: {}",
                            size,
                            signal.totalRetries() + 1,
                            Causes.root(signal.failure()).toString());
                })
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

    @Override
    public void stop() {
        stop(() -> {});
    }

    /**
     * Keeps recording while the paths write what they hold, until visits have stopped arriving and nothing is held
     * (the web server has stopped before this, but a connection it kept open may still be answered while a slow
     * flush runs); then closes recording, waits for visits being recorded at that instant, lets both paths write the
     * last of it, and calls back. The open phase and the last flush each take at most half of
     * {@code shutdown-flush-timeout}.
     */
    @Override
    public void stop(Runnable callback) {
        synchronized (this) {
            if (!running) {
                callback.run();
                return;
            }
            running = false;
        }
        Duration half = properties.shutdownFlushTimeout().dividedBy(2);
        settled(half)
                .then(Mono.defer(() -> {
                    close();
                    Mono<Void> raw = drained.asMono().timeout(half, timer).onErrorResume(timeout -> {
                        int left = held.getAndSet(0);
                        droppedShutdown.increment(left);
                        log.error(
                                "Shutdown flush timed out after {}; dropped {} visits still held",
                                properties.shutdownFlushTimeout(),
                                left);
                        pipeline.dispose();
                        return Mono.empty();
                    });
                    return Mono.when(raw, counts.stop(half));
                }))
                .doFinally(signal -> callback.run())
                .subscribe();
    }

    /**
     * Completes once, for one {@link #QUIET} period, no visit has been recorded, no raw row is held and no count
     * is waiting to be written; or after {@code limit}. Recording stays open meanwhile, and both paths keep writing.
     */
    private Mono<Void> settled(Duration limit) {
        return Mono.defer(() -> {
                    double[] last = {-1};
                    return Flux.interval(QUIET, timer)
                            .map(tick -> counted.count() + orphansCounted.count() + rejectedUnreadable.count())
                            .takeUntil(seen -> {
                                boolean settled = seen == last[0] && held.get() == 0 && tally.pending() == 0;
                                last[0] = seen;
                                return settled;
                            })
                            .then();
                })
                .timeout(limit, timer)
                .onErrorResume(timeout -> Mono.empty());
    }

    /** Stops taking visits, and waits for those being recorded at this instant to reach the buffer and the tally. */
    private void close() {
        accepting = false;
        // A visit that saw `accepting` true has already raised `recording`: wait for it, so closing the buffer
        // cannot race its last row.
        long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        while (recording.sum() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        log.info("Flushing {} buffered visits and the counts of {} before shutdown", held.get(), tally.pending());
        sink.complete();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    static String truncate(String value, int max) {
        if (value == null) {
            return null;
        }
        if (value.length() <= max) {
            return value;
        }
        int end = max;
        if (Character.isHighSurrogate(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(0, end);
    }
}
