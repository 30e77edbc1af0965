package dev.shortgate.visit;

import java.net.InetAddress;

import org.springframework.modulith.NamedInterface;

/**
 * A listener the visit intake calls with every visit and orphan visit it takes, right after its raw row is offered,
 * without knowing who listens (the {@code events} feature feeds its integrations from it). It runs on the event loop
 * of the redirect: an implementation must take microseconds, never block, never throw, and shed what it cannot
 * keep.
 */
@NamedInterface("taps")
public interface VisitTap {

    /** Taps nothing: the intake's listener when no other is registered. */
    VisitTap NONE = visit -> {};

    /** A visit or an orphan visit ({@link RawVisit#orphan()} set) was taken. */
    void visited(RawVisit visit);

    /**
     * What a tapped visit's listener may learn of its visitor off the event loop: the cheap half of enrichment
     * (GeoIP, which is in memory, and the bot heuristic), without the user-agent parse. Call it on a worker thread.
     */
    @NamedInterface("taps")
    interface Describer {

        /** @param country ISO code or {@code null}; @param city English name or {@code null} */
        record Description(String country, String city, boolean bot) {}

        Description describe(InetAddress ip, String userAgent);
    }
}
