package dev.shortgate.visit;

import java.net.InetAddress;
import java.time.Instant;

/**
 * What the redirect hands over: only facts that are cheap to take on the event loop. Parsing and look-ups
 * happen later, in the writer.
 *
 * @param id        the visit id ({@link VisitId}, 12 bytes)
 * @param code      the short code that was visited; for an orphan visit, the path asked for without its leading
 *                  {@code /} (the code itself for {@link OrphanVisitType#INVALID_SHORT_URL})
 * @param at        when, from the injected clock
 * @param ip        the client address ({@link dev.shortgate.security.ClientIpResolver}), raw; or {@code null}
 * @param userAgent the {@code User-Agent} header, already cut to its bound; or {@code null}
 * @param referer   the {@code Referer} header, already cut to its bound; or {@code null}
 * @param orphan    what an orphan visit asked for; {@code null} for a visit of a link
 * @param query     an orphan visit's raw query string, or {@code null}; joined to the path (and cut to its bound)
 *                  by the writer, off the event loop
 * @param redirectUrl the target a redirect rule or split chose, before the forwarded query; {@code null} when the
 *                  link's own URL was used (and for orphan visits)
 * @param domainId  an orphan visit's short domain, as the request's host picked it (0, the default domain, for a host
 *                  that is none of ours); 0 for a visit of a link, whose domain is in its {@code code} (its key)
 */
@org.springframework.modulith.NamedInterface("taps")
public record RawVisit(
        byte[] id,
        String code,
        Instant at,
        InetAddress ip,
        String userAgent,
        String referer,
        OrphanVisitType orphan,
        String query,
        String redirectUrl,
        int domainId) {

    /** A visit of a link to its own URL. */
    public RawVisit(byte[] id, String code, Instant at, InetAddress ip, String userAgent, String referer) {
        this(id, code, at, ip, userAgent, referer, null, null, null, 0);
    }

    /** A visit of a link, or an orphan visit of the default domain. */
    public RawVisit(
            byte[] id,
            String code,
            Instant at,
            InetAddress ip,
            String userAgent,
            String referer,
            OrphanVisitType orphan,
            String query,
            String redirectUrl) {
        this(id, code, at, ip, userAgent, referer, orphan, query, redirectUrl, 0);
    }

    public RawVisit(
            byte[] id,
            String code,
            Instant at,
            InetAddress ip,
            String userAgent,
            String referer,
            OrphanVisitType orphan,
            String query) {
        this(id, code, at, ip, userAgent, referer, orphan, query, null, 0);
    }
}
