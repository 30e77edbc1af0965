package dev.shortgate.visit;

import java.time.Instant;

/**
 * One row of the {@code visit} table: a {@link RawVisit} after enrichment.
 *
 * @param id        12-byte visit id
 * @param code      the short code
 * @param visitedAt when
 * @param clientId  SHA-256 (hex) of the raw client IP, {@code &} and the user agent: counts unique visitors
 * @param visitor   who made it, and what GeoIP and Yauaa made of them
 * @param redirectUrl the target a redirect rule or split chose, or {@code null} for the link's own URL
 */
public record Visit(byte[] id, String code, Instant visitedAt, String clientId, Visitor visitor, String redirectUrl) {

    public Visit(byte[] id, String code, Instant visitedAt, String clientId, Visitor visitor) {
        this(id, code, visitedAt, clientId, visitor, null);
    }
}
