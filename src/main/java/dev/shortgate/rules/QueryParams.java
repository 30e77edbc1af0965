package dev.shortgate.rules;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A request's query parameters as Shlink (PHP) sees them for the query conditions: names and values
 * percent-decoded with {@code +} as a space, a parameter without {@code =} has the empty value, and of a repeated
 * name the last one counts. At most {@value #MAX_PARAMS} parameters are read.
 */
final class QueryParams {

    static final int MAX_PARAMS = 64;

    private QueryParams() {}

    static Map<String, String> parse(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return Map.of();
        }
        Map<String, String> params = new HashMap<>();
        int count = 0;
        for (String pair : rawQuery.split("&", MAX_PARAMS + 1)) {
            if (++count > MAX_PARAMS) {
                break;
            }
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (!name.isEmpty()) {
                params.put(name, value);
            }
        }
        return params;
    }

    private static String decode(String part) {
        try {
            return URLDecoder.decode(part, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return part;
        }
    }
}
