package dev.shortgate.visit;

import java.net.InetAddress;
import java.time.Instant;

/**
 * What the redirect hands over: only facts that are cheap to take on the event loop. Parsing and look-ups
 * happen later, in the writer.
 *
 * @param id        the visit id ({@link VisitId}, 12 bytes)
 * @param code      the short code that was visited
 * @param at        when, from the injected clock
 * @param ip        the client address ({@link dev.shortgate.security.ClientIpResolver}), raw; or {@code null}
 * @param userAgent the {@code User-Agent} header, already cut to its bound; or {@code null}
 * @param referer   the {@code Referer} header, already cut to its bound; or {@code null}
 */
record RawVisit(byte[] id, String code, Instant at, InetAddress ip, String userAgent, String referer) {
}
