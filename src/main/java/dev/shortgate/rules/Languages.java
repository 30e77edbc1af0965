package dev.shortgate.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The languages a visitor accepts, from {@code Accept-Language}, as Shlink 5.1 reads them: each entry's locale in
 * lower case with {@code _} as {@code -}, and only entries of quality 0.9 or more count (so {@code q=0}, which means
 * "not this one", never matches, and neither does a second choice at {@code q=0.8}); {@code *} is ignored. A
 * {@code language} condition of {@code en} matches any accepted {@code en} or {@code en-xx}; one of {@code en-US}
 * matches only an accepted {@code en-US}.
 */
final class Languages {

    static final double MIN_QUALITY = 0.9;
    /** Entries read from one header at most: a visitor cannot make a redirect parse a megabyte. */
    static final int MAX_ENTRIES = 32;

    private Languages() {}

    /** Accepted locales, lower case, as {@code {language, region-or-null}} pairs. */
    static List<String[]> accepted(String header) {
        if (header == null) {
            return List.of();
        }
        String trimmed = header.trim();
        if (trimmed.isEmpty() || trimmed.equals("*")) {
            return List.of();
        }
        List<String[]> locales = new ArrayList<>(4);
        int entries = 0;
        for (String entry : trimmed.split(",", MAX_ENTRIES + 1)) {
            if (++entries > MAX_ENTRIES) {
                break;
            }
            int semicolon = entry.indexOf(';');
            String locale = normalize(semicolon < 0 ? entry : entry.substring(0, semicolon));
            if (locale.isEmpty() || locale.equals("*")) {
                continue;
            }
            if (semicolon >= 0 && quality(entry.substring(semicolon + 1)) < MIN_QUALITY) {
                continue;
            }
            locales.add(split(locale));
        }
        return locales;
    }

    static String normalize(String locale) {
        return locale.replace('_', '-').toLowerCase(Locale.ROOT).trim();
    }

    /** {@code {language, region-or-null}} of a normalised locale. */
    static String[] split(String locale) {
        int dash = locale.indexOf('-');
        if (dash < 0) {
            return new String[] {locale, null};
        }
        int second = locale.indexOf('-', dash + 1);
        return new String[] {
            locale.substring(0, dash), locale.substring(dash + 1, second < 0 ? locale.length() : second)
        };
    }

    /** The {@code q} of an entry's parameters; 1 when it has none; 0 when it is not a number. */
    private static double quality(String parameters) {
        for (String parameter : parameters.split(";")) {
            String p = parameter.trim();
            if (p.startsWith("q=") || p.startsWith("Q=")) {
                try {
                    return Double.parseDouble(p.substring(2).trim());
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
