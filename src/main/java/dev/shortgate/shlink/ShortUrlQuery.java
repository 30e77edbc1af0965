package dev.shortgate.shlink;

import java.time.Instant;
import java.util.List;

/**
 * The filters and order of Shlink's short URL list.
 *
 * @param owner                  only links this key created, or {@code null} for all
 * @param searchTerm             a piece of the long URL, short code, title or a tag, any case; or {@code null}
 * @param tags                   tags to match; empty for no tag filter
 * @param allTags                whether a link must carry every tag ({@code tagsMode=all}) rather than any
 * @param startDate              created at or after, or {@code null}
 * @param endDate                created at or before, or {@code null}
 * @param excludeMaxVisitsReached leave out links whose visits reached their cap
 * @param excludePastValidUntil  leave out links that expired before {@code now}
 * @param orderBy                an SQL order expression from {@link #ORDERS}
 */
record ShortUrlQuery(
        Long owner,
        String searchTerm,
        List<String> tags,
        boolean allTags,
        Instant startDate,
        Instant endDate,
        boolean excludeMaxVisitsReached,
        boolean excludePastValidUntil,
        Instant now,
        String orderBy) {

    /** Shlink's {@code orderBy} values and the columns they sort by; ties go by code. */
    static final java.util.Map<String, String> ORDERS = java.util.Map.ofEntries(
            java.util.Map.entry("longUrl-ASC", "l.long_url ASC, l.code ASC"),
            java.util.Map.entry("longUrl-DESC", "l.long_url DESC, l.code DESC"),
            java.util.Map.entry("shortCode-ASC", "l.code ASC"),
            java.util.Map.entry("shortCode-DESC", "l.code DESC"),
            java.util.Map.entry("dateCreated-ASC", "l.created_at ASC, l.code ASC"),
            java.util.Map.entry("dateCreated-DESC", "l.created_at DESC, l.code DESC"),
            java.util.Map.entry("title-ASC", "m.title ASC, l.code ASC"),
            java.util.Map.entry("title-DESC", "m.title DESC, l.code DESC"),
            java.util.Map.entry("visits-ASC", "visits ASC, l.code ASC"),
            java.util.Map.entry("visits-DESC", "visits DESC, l.code DESC"),
            java.util.Map.entry("nonBotVisits-ASC", "non_bot_visits ASC, l.code ASC"),
            java.util.Map.entry("nonBotVisits-DESC", "non_bot_visits DESC, l.code DESC"));

    static final String DEFAULT_ORDER = ORDERS.get("dateCreated-DESC");
}
