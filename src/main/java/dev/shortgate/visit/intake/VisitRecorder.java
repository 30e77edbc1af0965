package dev.shortgate.visit.intake;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.VisitId;
import dev.shortgate.visit.VisitProperties;
import dev.shortgate.visit.VisitTap;
import dev.shortgate.visit.counts.UniqueVisitors;
import dev.shortgate.visit.counts.VisitCountFlusher;
import dev.shortgate.visit.counts.VisitTally;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.modulith.NamedInterface;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
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
 * <p><b>Raw rows shed load.</b> The visit's raw row is offered to the {@link RawVisitBuffer}: bounded at
 * {@code buffer-capacity} rows, written in batches, retried until written; a row that finds it full is dropped and
 * counted.
 *
 * <p>As a {@link SmartLifecycle} it starts before the web server and stops after it: on shutdown the server first
 * finishes its requests (graceful shutdown); then recording closes, waiting for visits being recorded at that
 * moment, and both paths write what they hold, for at most {@code shutdown-flush-timeout}. Raw rows still held then
 * are counted as dropped ({@code shutdown}).
 */
@NamedInterface(name = "recording", propagate = false)
public final class VisitRecorder implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(VisitRecorder.class);

    /** After the web server has stopped (it stops at {@link WebServerApplicationContext#START_STOP_LIFECYCLE_PHASE}). */
    static final int PHASE = WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 1024;

    /** How long recording must see no visit before shutdown closes it. */
    static final Duration QUIET = Duration.ofMillis(100);

    /** Writes one batch of raw rows, or fails; retries and counting are the {@link RawVisitBuffer}'s. */
    @FunctionalInterface
    interface BatchWriter {
        Mono<Void> write(List<RawVisit> batch);
    }

    private final VisitProperties properties;
    private final VisitTally tally;
    private final VisitCountFlusher counts;
    private final Scheduler timer;
    private final RawVisitBuffer buffer;
    private final VisitIntake intake;

    private volatile boolean running;

    public VisitRecorder(
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
        this(properties, clientIps, ids, writer, tally, uniques, counts, VisitTap.NONE, clock, timer, registry);
    }

    /** @param tap told of every visit taken, on the event loop ({@link VisitTap}) */
    public VisitRecorder(
            VisitProperties properties,
            ClientIpResolver clientIps,
            VisitId ids,
            BatchWriter writer,
            VisitTally tally,
            UniqueVisitors uniques,
            VisitCountFlusher counts,
            VisitTap tap,
            Clock clock,
            Scheduler timer,
            MeterRegistry registry) {
        this.properties = properties;
        this.tally = tally;
        this.counts = counts;
        this.timer = timer;
        this.buffer = new RawVisitBuffer(properties, writer, timer, registry, counts::behind);
        this.intake = new VisitIntake(properties, clientIps, ids, tally, uniques, counts, buffer, tap, clock, registry);
    }

    /**
     * Records a visit to {@code code} made by {@code request}. Takes microseconds, never blocks and never throws.
     * Call it for GET only: HEAD requests are not visits.
     */
    public void record(ServerRequest request, String code) {
        intake.take(request, code);
    }

    /**
     * Records a visit from plain facts: the short code, the client address (as {@link ClientIpResolver} decided
     * it; {@code null} when unknown), and the raw {@code User-Agent} and {@code Referer} header values (either may
     * be {@code null}; they are cut to their bounds here). For the redirect path's fast lane: cheap, allocation-light,
     * never blocks and never throws. Call it for GET only, once the redirect is decided.
     */
    public void record(String code, InetAddress clientIp, String userAgent, String referer) {
        intake.take(code, clientIp, userAgent, referer);
    }

    /**
     * As {@link #record(String, InetAddress, String, String)}, for a visit a redirect rule or split sent to
     * {@code redirectUrl} (before the forwarded query): kept on the raw row and counted per destination.
     */
    public void record(String code, InetAddress clientIp, String userAgent, String referer, String redirectUrl) {
        intake.take(code, clientIp, userAgent, referer, redirectUrl);
    }

    /**
     * Records an orphan visit: a GET on the traffic port that reached no link. It takes the same path as a visit,
     * with the same costs: counted at once in the tally (per UTC day and type only, never per path) and its raw row
     * offered to the same bounded buffer, shed and counted like a visit's when the buffer is full. Nothing is
     * joined, parsed or looked up here. Cheap, never blocks, never throws.
     *
     * @param type     what was asked for
     * @param domainId the short domain the request's host picked ({@code Domains#redirectDomainId}; 0, the default
     *                 domain, for a host that is none of ours); counted and kept per domain
     * @param path     the path asked for without its leading {@code /} (for an invalid short URL, the code)
     * @param rawQuery the raw query string, or {@code null}
     */
    public void recordOrphan(
            OrphanVisitType type,
            int domainId,
            String path,
            String rawQuery,
            InetAddress clientIp,
            String userAgent,
            String referer) {
        intake.takeOrphan(type, Math.max(domainId, 0), path, rawQuery, clientIp, userAgent, referer);
    }

    /** Puts a raw row in the buffer; {@code false} (and a counted drop) when the buffer is full or closed. */
    boolean offer(RawVisit visit) {
        return buffer.offer(visit);
    }

    /** Raw rows held now: queued, batched or being written. */
    int held() {
        return buffer.held();
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
        buffer.start();
        counts.start();
        intake.open();
        running = true;
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
                    return Mono.when(buffer.drain(half), counts.stop(half));
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
                            .map(tick -> intake.seen())
                            .takeUntil(seen -> {
                                boolean settled = seen == last[0] && buffer.held() == 0 && tally.pending() == 0;
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
        intake.close();
        log.info("Flushing {} buffered visits and the counts of {} before shutdown", buffer.held(), tally.pending());
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
