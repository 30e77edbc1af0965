package dev.shortgate.shlink;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.shortgate.link.store.LinkTags;

/**
 * The JSON body of Shlink's create and edit short URL requests ({@link ShortUrlController}), read one field at a
 * time. Each field the request does not take and each value of the wrong type or out of range is collected rather
 * than thrown, so that one invalid-data error ({@link #check()}) names them all, in the order they were read, as
 * Shlink's {@code invalidElements} does. A field that is absent reads as {@code null} (tags as none).
 */
final class ShortUrlBody {

    static final Set<String> EDIT_FIELDS = Set.of(
            "longUrl",
            "validSince",
            "validUntil",
            "maxVisits",
            "tags",
            "title",
            "crawlable",
            "forwardQuery",
            "deviceLongUrls",
            "validateUrl");
    /** Creating takes every field editing takes, and these. */
    static final Set<String> CREATE_FIELDS = Stream.concat(
                    EDIT_FIELDS.stream(),
                    Stream.of("customSlug", "shortCodeLength", "findIfExists", "domain", "pathPrefix", "apiKey"))
            .collect(Collectors.toUnmodifiableSet());

    private final Map<String, Object> body;
    private final Clock clock;
    private final List<String> invalid = new ArrayList<>();

    /** A body of a request that takes {@code fields}; every other field in it is invalid. */
    ShortUrlBody(Map<String, Object> body, Set<String> fields, Clock clock) {
        this.body = body;
        this.clock = clock;
        for (String field : body.keySet()) {
            if (!fields.contains(field)) {
                invalid.add(field);
            }
        }
    }

    boolean has(String field) {
        return body.containsKey(field);
    }

    /** Marks {@code field} invalid for a reason the caller checked. */
    void invalid(String field) {
        invalid.add(field);
    }

    /** Throws Shlink's invalid-data error naming every invalid field, if there is one. */
    void check() {
        if (!invalid.isEmpty()) {
            throw ShlinkErrors.invalidData(List.copyOf(new LinkedHashSet<>(invalid)));
        }
    }

    /** A text that must be there. */
    String requiredText(String field) {
        if (body.get(field) instanceof String text) {
            return text;
        }
        invalid.add(field);
        return null;
    }

    String text(String field) {
        return typed(field, String.class);
    }

    Boolean bool(String field) {
        return typed(field, Boolean.class);
    }

    Integer length() {
        Long length = whole("shortCodeLength", 1, 8);
        return length == null ? null : length.intValue();
    }

    Long maxVisits() {
        return whole("maxVisits", 1, Long.MAX_VALUE);
    }

    /** The value when it is of {@code type}; otherwise {@code null}, and a value that is there is invalid. */
    private <T> T typed(String field, Class<T> type) {
        Object value = body.get(field);
        if (value == null || type.isInstance(value)) {
            return type.cast(value);
        }
        invalid.add(field);
        return null;
    }

    /** A whole number from {@code min} to {@code max}, however JSON wrote it ({@code 5} or {@code 5.0}). */
    private Long whole(String field, long min, long max) {
        Object value = body.get(field);
        if (value == null) {
            return null;
        }
        if (value instanceof Number n
                && n.doubleValue() == n.longValue()
                && n.longValue() >= min
                && n.longValue() <= max) {
            return n.longValue();
        }
        invalid.add(field);
        return null;
    }

    Instant date(String field) {
        Object value = body.get(field);
        if (value == null) {
            return null;
        }
        if (value instanceof String text) {
            try {
                return ShlinkJson.parse(text, false);
            } catch (DateTimeException e) {
                // reported below
            }
        }
        invalid.add(field);
        return null;
    }

    /** Shortgate does not hold a link back until a later date: only a validSince already past is accepted. */
    Instant validSince() {
        Instant since = date("validSince");
        if (since != null && since.isAfter(clock.instant())) {
            invalid.add("validSince");
            return null;
        }
        return since;
    }

    /** The tags as {@link LinkTags#normalize} reads them; empty when absent or invalid. */
    List<String> tags() {
        Object value = body.get("tags");
        if (value == null) {
            return List.of();
        }
        List<String> tags =
                value instanceof List<?> given ? LinkTags.normalize(given).orElse(null) : null;
        if (tags == null) {
            invalid.add("tags");
            return List.of();
        }
        return tags;
    }
}
