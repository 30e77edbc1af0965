package dev.shortgate.system.settings;

import java.util.Locale;

/** Checks a configured secret at startup, so a weak or copied-from-the-example value never runs. */
public final class SecretSettings {

    public static final int MIN_LENGTH = 16;

    private SecretSettings() {}

    /**
     * Refuses a set secret shorter than {@link #MIN_LENGTH} characters, or one still holding the
     * {@code PLACEHOLDER} text of the shipped examples (a key anyone can read there is no secret).
     *
     * @param property the setting's name, for the message
     * @param value    the configured value; {@code null} or empty means "not set" and passes
     */
    public static void check(String property, String value) {
        if (value == null || value.isEmpty()) {
            return;
        }
        if (value.length() < MIN_LENGTH) {
            throw new IllegalArgumentException(property + " must be at least " + MIN_LENGTH + " characters");
        }
        if (value.toUpperCase(Locale.ROOT).contains("PLACEHOLDER")) {
            throw new IllegalArgumentException(property + " still holds the example's placeholder; set a real secret");
        }
    }
}
