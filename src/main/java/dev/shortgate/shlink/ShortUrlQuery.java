package dev.shortgate.shlink;

import java.time.Instant;
import java.util.List;

import org.springframework.util.MultiValueMap;

/**
 * The filters and order of Shlink's short URL list.
 *
 * @param owner                  only links this key created, or {@code null} for all
 * @param searchTerm             a piece of the long URL, short code, title or a tag, any case; or {@code null}
 * @param tags                   tags to match; empty for no tag filter
 * @param allTags                whether a link must carry every tag ({@code tagsMode=all}) rather than any
 * @param excludeTags            tags whose links are left out; empty for none
 * @param excludeAllTags         whether only links carrying every one of them are left out
 *                               ({@code excludeTagsMode=all}) rather than those carrying any
 * @param apiKeyName             only links created with the API key of this name, or {@code null}
 * @param domainId               only links of the domain with this id, {@code null} for every domain's, or
 *                               {@link #NO_DOMAIN} for none (a {@code domain} filter naming a domain this gateway
 *                               does not have, for which Shlink lists nothing)
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
        List<String> excludeTags,
        boolean excludeAllTags,
        String apiKeyName,
        Integer domainId,
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

    /** The {@link #domainId} of a domain that does not exist: the list is empty. */
    static final int NO_DOMAIN = -1;

    static final String DEFAULT_ORDER = ORDERS.get("dateCreated-DESC");

    /** The order the list's {@code orderBy} asks for, or Shlink's invalid-data error for one it does not know. */
    static String order(MultiValueMap<String, String> params) {
        String orderParam = params.getFirst("orderBy");
        String order = orderParam == null || orderParam.isBlank() ? DEFAULT_ORDER : ORDERS.get(orderParam);
        if (order == null) {
            throw ShlinkErrors.invalidData("orderBy", "orderBy must be one of " + ORDERS.keySet() + ".");
        }
        return order;
    }

    /** The filters the list's parameters ask for, in {@code order}; Shlink's invalid-data error for a bad date. */
    static ShortUrlQuery of(
            MultiValueMap<String, String> params, Long owner, Integer domainId, String order, Instant now) {
        return new ShortUrlQuery(
                owner,
                params.getFirst("searchTerm"),
                ShlinkParams.list(params, "tags"),
                "all".equals(params.getFirst("tagsMode")),
                ShlinkParams.list(params, "excludeTags"),
                "all".equals(params.getFirst("excludeTagsMode")),
                blankToNull(params.getFirst("apiKeyName")),
                domainId,
                ShlinkParams.date(params, "startDate", false),
                ShlinkParams.date(params, "endDate", true),
                ShlinkParams.flag(params, "excludeMaxVisitsReached"),
                ShlinkParams.flag(params, "excludePastValidUntil"),
                now,
                order);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
