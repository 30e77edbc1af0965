package dev.shortgate.visit;

import dev.shortgate.visit.orphan.OrphanVisits;
import dev.shortgate.visit.stats.VisitQueries;
import io.r2dbc.spi.Readable;
import org.springframework.modulith.NamedInterface;

/**
 * Who made a visit, as its raw row keeps it: the client address, its user agent and referer, and what GeoIP and
 * Yauaa made of them. A visit of a link ({@link Visit}, table {@code visit}) and an orphan visit
 * ({@link OrphanVisits.Row}, table {@code orphan_visit}) keep the same, in columns of the same names; the APIs show
 * these fields flat among a visit's own.
 *
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
@NamedInterface("orphans")
public record Visitor(
        String ip,
        String userAgent,
        String referer,
        String country,
        String city,
        String browser,
        String browserVersion,
        String os,
        String deviceClass,
        boolean bot) {

    /** The visitor columns of a {@code visit} or {@code orphan_visit} row. */
    public static Visitor read(Readable row) {
        return new Visitor(
                row.get("ip", String.class),
                row.get("user_agent", String.class),
                row.get("referer", String.class),
                row.get("country", String.class),
                row.get("city", String.class),
                row.get("browser", String.class),
                row.get("browser_version", String.class),
                row.get("os", String.class),
                row.get("device_class", String.class),
                VisitQueries.bool(row.get("bot")));
    }
}
