package dev.shortgate.shlink;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.springframework.util.MultiValueMap;

/** Query parameters as Shlink reads them. */
final class ShlinkParams {

    private ShlinkParams() {}

    /** {@code name[]} values (and plain {@code name} ones), in order. */
    static List<String> list(MultiValueMap<String, String> params, String name) {
        List<String> values = new ArrayList<>();
        for (String key : List.of(name + "[]", name)) {
            List<String> given = params.get(key);
            if (given != null) {
                given.stream().filter(v -> v != null && !v.isBlank()).forEach(values::add);
            }
        }
        return values;
    }

    static boolean flag(MultiValueMap<String, String> params, String name) {
        String value = params.getFirst(name);
        return value != null && (value.equals("true") || value.equals("1"));
    }

    static Instant date(MultiValueMap<String, String> params, String name, boolean endOfDay) {
        String value = params.getFirst(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return ShlinkJson.parse(value, endOfDay);
        } catch (DateTimeException e) {
            throw ShlinkErrors.invalidData(name, name + " must be an ISO-8601 date.");
        }
    }
}
