package dev.shortgate.rules;

import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * {@code Accept-Language} headers read by {@link Languages#accepted}, kept for the most recent few hundred, so a
 * redirect with language rules costs a hash look-up for a header seen before (browsers send a handful of distinct
 * ones) instead of splitting, lower-casing and parsing q-values. Headers longer than {@value #MAX_CACHED_LENGTH}
 * characters are read each time and never kept.
 */
final class AcceptedLanguages {

    static final int MAX_CACHED_LENGTH = 256;

    private final Cache<String, List<String[]>> cache;

    AcceptedLanguages(long maximumSize) {
        this.cache = Caffeine.newBuilder().maximumSize(maximumSize).build();
    }

    /** The accepted locales as {@link Languages#accepted} answers them; shared, so never to be changed. */
    List<String[]> of(String header) {
        if (header == null || header.length() > MAX_CACHED_LENGTH) {
            return Languages.accepted(header);
        }
        List<String[]> known = cache.getIfPresent(header);
        if (known == null) {
            known = List.copyOf(Languages.accepted(header));
            cache.put(header, known);
        }
        return known;
    }
}
