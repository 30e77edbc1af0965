package dev.shortgate.visit;

import java.time.Instant;

/**
 * One row of the {@code visit} table: a {@link RawVisit} after enrichment.
 *
 * @param id             12-byte visit id
 * @param code           the short code
 * @param visitedAt      when
 * @param clientId       SHA-256 (hex) of the raw client IP, {@code &} and the user agent: counts unique visitors
 * @param ip             the client IP, anonymised unless raw storage is on; or {@code null}
 * @param userAgent      the raw user agent, bounded; or {@code null}
 * @param referer        the referer, bounded; or {@code null}
 * @param country        ISO 3166-1 alpha-2 country code from GeoIP; or {@code null}
 * @param city           city name (English) from GeoIP; or {@code null}
 * @param browser        browser name from Yauaa; or {@code null}
 * @param browserVersion browser version from Yauaa; or {@code null}
 * @param os             operating system name from Yauaa; or {@code null}
 * @param deviceClass    Yauaa device class ({@code Desktop}, {@code Phone}, {@code Robot}, ...); or {@code null}
 * @param bot            whether a robot or a link-preview fetcher made the visit
 */
record Visit(
        byte[] id,
        String code,
        Instant visitedAt,
        String clientId,
        String ip,
        String userAgent,
        String referer,
        String country,
        String city,
        String browser,
        String browserVersion,
        String os,
        String deviceClass,
        boolean bot) {}
