package dev.shortgate.redirect;

/**
 * Appends a visitor's query string to a link's target: after the target's own query (joined with {@code &}),
 * before its fragment. Characters that may not stand raw in a query are percent-encoded, so the result is
 * always a single, valid header value.
 */
final class QueryForwarding {

    private QueryForwarding() {
    }

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
        StringBuilder out = new StringBuilder(query.length());
        for (int i = 0; i < query.length(); i++) {
            char c = query.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "-._~!$&'()*+,;=:@/?%".indexOf(c) >= 0;
            if (allowed) {
                out.append(c);
            } else if (c < 0x80) {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            } else {
                for (byte b : String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                    out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                            .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
                }
            }
        }
        return out.toString();
    }
}
