package dev.shortgate.redirect;

import java.util.Locale;

/** Where a redirect's answer came from; the {@code tier} tag of {@code shortgate.redirect}. */
enum Tier {
    NEAR, REDIS, DB, NONE;

    final String tag = name().toLowerCase(Locale.ROOT);
}
