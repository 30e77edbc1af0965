package dev.shortgate.redirect.lookup;

import java.util.Locale;

/**
 * Where a redirect's answer came from; the {@code tier} tag of {@code shortgate.redirect}. {@code GUARD}: the
 * unknown-code guard answered that the code was never created; {@code NONE}: no lookup was needed or possible.
 */
public enum Tier {
    NEAR,
    REDIS,
    GUARD,
    DB,
    NONE;

    public final String tag = name().toLowerCase(Locale.ROOT);
}
