package dev.shortgate.redirect.http;

import java.util.regex.Pattern;

import com.google.common.net.PercentEscaper;

/**
 * Appends a visitor's query string to a link's target: after the target's own query (joined with {@code &}),
 * before its fragment. Characters that may not stand raw in a query are percent-encoded (as UTF-8), so the result
 * is always a single, valid header value.
 */
final class QueryForwarding {

    /** What may stand raw in a query besides letters and digits, existing escapes included. */
    private static final PercentEscaper QUERY = new PercentEscaper("-._~!$&'()*+,;=:@/?%", false);

    private static final Pattern LONE_SURROGATE = Pattern.compile("\\p{Cs}");

    private QueryForwarding() {}

    static String merge(String target, String incomingRawQuery) {
        if (incomingRawQuery == null || incomingRawQuery.isEmpty()) {
            return target;
        }
        String query = sanitize(incomingRawQuery);
        int hash = target.indexOf('#');
        String base = hash < 0 ? target : target.substring(0, hash);
        String fragment = hash < 0 ? "" : target.substring(hash);
        String separator = base.indexOf('?') < 0 ? "?" : (base.endsWith("?") || base.endsWith("&") ? "" : "&");
        return base + separator + query + fragment;
    }

    private static String sanitize(String query) {
        try {
            return QUERY.escape(query);
        } catch (IllegalArgumentException unpairedSurrogate) {
            // UTF-8 has no form for a lone surrogate: write U+FFFD, the replacement character, in its place
            return QUERY.escape(LONE_SURROGATE.matcher(query).replaceAll("\uFFFD"));
        }
    }
}
