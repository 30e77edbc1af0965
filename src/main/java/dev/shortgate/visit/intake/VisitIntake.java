package dev.shortgate.visit.intake;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;

import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.VisitId;
import dev.shortgate.visit.VisitProperties;
import dev.shortgate.visit.VisitTap;
import dev.shortgate.visit.counts.UniqueVisitors;
import dev.shortgate.visit.counts.VisitCountFlusher;
import dev.shortgate.visit.counts.VisitTally;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The {@link VisitRecorder}'s work on the event loop, one visit at a time: it counts the visit at once in the
 * {@link VisitTally} and the {@link UniqueVisitors} sketch, offers its raw row to the {@link RawVisitBuffer}, and
 * hands it to the {@link VisitTap}.
 * Nothing is parsed or looked up here, nothing blocks and nothing is thrown: a visit whose facts cannot be read is
 * counted as dropped ({@code unreadable}), and one that arrives after recording has closed as dropped
 * ({@code shutdown}). It tracks the visits being taken right now, so that closing can wait for them.
 */
final class VisitIntake {

    private static final Logger log = LoggerFactory.getLogger(VisitIntake.class);

    private static final long SECONDS_PER_DAY = 86_400;

    private final VisitProperties properties;
    private final ClientIpResolver clientIps;
    private final VisitId ids;
    private final VisitTally tally;
    private final UniqueVisitors uniques;
    private final VisitCountFlusher counts;
    private final RawVisitBuffer buffer;
    private final VisitTap tap;
    private final Clock clock;

    /**
     * Visits being recorded right now; shutdown waits for them before closing the buffer. Striped, since every event
     * loop changes it; a visit raises it before it reads {@code accepting}, so once shutdown has cleared
     * {@code accepting} and then seen a sum of 0, no visit can still reach the buffer.
     */
    private final LongAdder recording = new LongAdder();

    private final Counter counted;
    private final Counter orphansCounted;
    private final Counter droppedShutdown;
    private final Counter rejectedUnreadable;

    private volatile boolean accepting;

    VisitIntake(
            VisitProperties properties,
            ClientIpResolver clientIps,
            VisitId ids,
            VisitTally tally,
            UniqueVisitors uniques,
            VisitCountFlusher counts,
            RawVisitBuffer buffer,
            VisitTap tap,
            Clock clock,
            MeterRegistry registry) {
        this.properties = properties;
        this.clientIps = clientIps;
        this.ids = ids;
        this.tally = tally;
        this.uniques = uniques;
        this.counts = counts;
        this.buffer = buffer;
        this.tap = tap;
        this.clock = clock;
        this.counted = Counter.builder("shortgate.visits.counted")
                .description("Visits counted (every redirect answered to a GET, bots included)")
                .register(registry);
        this.orphansCounted = Counter.builder("shortgate.visits.orphans.counted")
                .description("Orphan visits counted (GETs on the traffic port that reached no link, bots included)")
                .register(registry);
        this.droppedShutdown = RawVisitBuffer.dropped(registry, "shutdown");
        this.rejectedUnreadable = RawVisitBuffer.dropped(registry, "unreadable");
    }

    /** {@link VisitRecorder#record(ServerRequest, String)}. */
    void take(ServerRequest request, String code) {
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
        take(code, ip, agent, referer);
    }

    /** {@link VisitRecorder#record(String, InetAddress, String, String)}. */
    void take(String code, InetAddress clientIp, String userAgent, String referer) {
        take(null, 0, code, null, clientIp, userAgent, referer, null);
    }

    /** {@link VisitRecorder#record(String, InetAddress, String, String, String)}. */
    void take(String code, InetAddress clientIp, String userAgent, String referer, String redirectUrl) {
        take(null, 0, code, null, clientIp, userAgent, referer, redirectUrl);
    }

    /** {@link VisitRecorder#recordOrphan}. */
    void takeOrphan(
            OrphanVisitType type,
            int domainId,
            String path,
            String rawQuery,
            InetAddress clientIp,
            String userAgent,
            String referer) {
        take(type, domainId, path, rawQuery, clientIp, userAgent, referer, null);
    }

    /**
     * Counts a visit of the link {@code code}, or with {@code orphan} set an orphan visit of the path {@code code}
     * (per UTC day, type and domain only), and offers its raw row.
     */
    private void take(
            OrphanVisitType orphan,
            int domainId,
            String code,
            String rawQuery,
            InetAddress clientIp,
            String userAgent,
            String referer,
            String redirectUrl) {
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
            // interned: the raw row waits for its batch (seconds, when the database is behind) with the tally's copy
            String agent = tally.intern(VisitRecorder.truncate(userAgent, properties.userAgentMaxLength()));
            String ref = VisitRecorder.truncate(referer, properties.refererMaxLength());
            if (orphan == null) {
                tally.add(code, day, agent, clientIp, VisitTally.refererHost(ref), redirectUrl);
                uniques.add(code, day, clientIp, agent, counts.isBot(agent));
                counted.increment();
            } else {
                tally.add(orphan.tallyKey(domainId), day, agent, null, null);
                orphansCounted.increment();
            }
            RawVisit raw =
                    new RawVisit(ids.next(at), code, at, clientIp, agent, ref, orphan, rawQuery, redirectUrl, domainId);
            buffer.offer(raw);
            tap.visited(raw);
        } catch (RuntimeException e) {
            rejectedUnreadable.increment();
            log.debug("Could not take {}: {}", orphan == null ? "a visit" : "an orphan visit", e.toString());
        } finally {
            recording.decrement();
        }
    }

    /** Starts taking visits. */
    void open() {
        accepting = true;
    }

    /** Stops taking visits, and waits for those being taken at this instant to reach the buffer and the tally. */
    void close() {
        accepting = false;
        buffer.close();
        // A visit that saw `accepting` true has already raised `recording`: wait for it, so closing the buffer
        // cannot race its last row.
        long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        while (recording.sum() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    /** Visits and orphan visits taken so far, and those whose facts could not be read: grows while any arrive. */
    double seen() {
        return counted.count() + orphansCounted.count() + rejectedUnreadable.count();
    }
}
