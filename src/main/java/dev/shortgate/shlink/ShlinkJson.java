package dev.shortgate.shlink;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.shortgate.link.Link;
import dev.shortgate.link.domain.DomainRedirects;
import dev.shortgate.visit.Visitor;
import dev.shortgate.visit.orphan.OrphanVisits;

/** The shapes of Shlink's REST API v3 (its {@code docs/swagger/definitions}), and its date format. */
final class ShlinkJson {

    /** Shlink writes dates as ISO-8601 with a numeric offset, e.g. {@code 2026-11-23T08:30:00+00:00}. */
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx", Locale.ROOT).withZone(ZoneOffset.UTC);

    private ShlinkJson() {}

    record ShortUrl(
            String shortCode,
            String shortUrl,
            String longUrl,
            String dateCreated,
            VisitsSummary visitsSummary,
            List<String> tags,
            Meta meta,
            String domain,
            String title,
            boolean crawlable,
            boolean forwardQuery,
            boolean hasRedirectRules) {}

    record VisitsSummary(long total, long nonBots, long bots) {
        static VisitsSummary of(long total, long bots) {
            return new VisitsSummary(total, total - bots, bots);
        }
    }

    record Meta(String validSince, String validUntil, Long maxVisits) {}

    record Pagination(long currentPage, long pagesCount, long itemsPerPage, long itemsInCurrentPage, long totalItems) {}

    /** {@code data} and {@code pagination}, the body of every Shlink list. */
    record Page<T>(List<T> data, Pagination pagination) {}

    record Visit(
            String referer,
            String date,
            String userAgent,
            Location visitLocation,
            boolean potentialBot,
            String visitedUrl,
            String redirectUrl) {}

    /**
     * A visit that reached no short URL: Shlink's visit, its {@code redirectUrl} always null, and a {@code type} that
     * says what was asked for.
     */
    record OrphanVisit(@JsonUnwrapped Visit visit, String type) {}

    record Location(
            String countryCode,
            String countryName,
            String regionName,
            String cityName,
            double latitude,
            double longitude,
            String timezone) {}

    record TagInfo(String tag, long shortUrlsCount, VisitsSummary visitsSummary) {}

    record Redirects(String baseUrlRedirect, String regular404Redirect, String invalidShortUrlRedirect) {
        static final Redirects NONE = new Redirects(null, null, null);

        static Redirects of(DomainRedirects.Redirects redirects) {
            return new Redirects(redirects.baseUrl(), redirects.regular404(), redirects.invalidShortUrl());
        }
    }

    record Domain(String domain, boolean isDefault, Redirects redirects) {}

    /** @param domain the link's domain, {@code null} for the default one (as Shlink answers) */
    static ShortUrl shortUrl(ShortUrlRow row, String code, String domain, String shortUrl) {
        Link link = row.link();
        return new ShortUrl(
                code,
                shortUrl,
                link.url(),
                date(link.createdAt()),
                VisitsSummary.of(row.visits(), row.botVisits()),
                row.tags(),
                new Meta(date(row.validSince()), date(link.expiresAt()), link.maxVisits()),
                domain,
                row.title(),
                row.crawlable(),
                link.forwardQuery(),
                false);
    }

    static Visit visit(ShlinkVisits.VisitRow row, String visitedUrl, String redirectUrl) {
        return new Visit(
                row.referer() == null ? "" : row.referer(),
                date(row.visitedAt()),
                row.userAgent() == null ? "" : row.userAgent(),
                location(row.country(), row.city()),
                row.bot(),
                visitedUrl,
                redirectUrl);
    }

    /** @param origin the base URL's origin, without a trailing {@code /}, that the visited path is joined to */
    static OrphanVisit orphanVisit(OrphanVisits.Row row, String origin) {
        Visitor visitor = row.visitor();
        ShlinkVisits.VisitRow visit = new ShlinkVisits.VisitRow(
                null,
                row.visitedAt(),
                visitor.userAgent(),
                visitor.referer(),
                visitor.country(),
                visitor.city(),
                visitor.bot(),
                null);
        return new OrphanVisit(
                visit(visit, origin + row.path(), null), row.type().value());
    }

    private static Location location(String countryCode, String cityName) {
        String country = countryCode == null ? "" : countryCode;
        String countryName = country.isEmpty() ? "" : new Locale("", country).getDisplayCountry(Locale.ENGLISH);
        return new Location(country, countryName, "", cityName == null ? "" : cityName, 0, 0, "");
    }

    static String date(Instant instant) {
        return instant == null ? null : DATE.format(instant);
    }

    /**
     * A date as Shlink accepts it: ISO-8601 with an offset or {@code Z}, a local date-time, or a plain date (its
     * start, or with {@code endOfDay} its last millisecond); local values are UTC.
     */
    static Instant parse(String value, boolean endOfDay) {
        String text = value.trim();
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            // try the next form
        }
        try {
            return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            // try the next form
        }
        LocalDate day = LocalDate.parse(text);
        return endOfDay
                ? day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusMillis(1)
                : day.atStartOfDay().toInstant(ZoneOffset.UTC);
    }
}
