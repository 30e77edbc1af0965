package dev.shortgate.redirect;

import java.util.Locale;

/**
 * Where a redirect's answer came from; the {@code tier} tag of {@code shortgate.redirect}. {@code GUARD}: the
 * unknown-code guard answered that the code was never created; {@code NONE}: no lookup was needed or possible.
 */
enum Tier {
    NEAR,
    REDIS,
    GUARD,
    DB,
    NONE;

    final String tag = name().toLowerCase(Locale.ROOT);
}
