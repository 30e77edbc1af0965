package dev.shortgate.visit;

import java.util.List;

/** The dimensions visits are counted by, with their fixed ids in {@code visit_dim_stats.dim}. */
public enum Dimension {
    COUNTRY(1),
    BROWSER(2),
    OS(3),
    DEVICE_CLASS(4),
    REFERRER_HOST(5),
    /** The target a redirect rule or split chose (links with rules only; bounded like every label). */
    DESTINATION(6),
    /**
     * Not a top list of its own: a visit's browser, OS and device class in one row, as {@link #agentLabel} joins
     * them, so a visit costs one row where it cost three (per day and again per month). They come from one user
     * agent, so a link sees few combinations a day. Readers count each row under {@link #BROWSER}, {@link #OS} and
     * {@link #DEVICE_CLASS} ({@link #agentParts}). Visits whose combination cannot be joined, or that find the
     * link's {@code max-labels} combinations of the day taken, are counted in those three rows as before, so each
     * label still counts every visit once.
     */
    AGENT(7);

    /** The label visits get when their dimension cannot be kept apart (label or distinct-entry bounds). */
    public static final String OTHER = "other";

    /** Between the parts of an {@link #AGENT} label: the unit separator, which no header value may hold. */
    static final char SEPARATOR = '\u001f';

    /** The dimensions of an {@link #AGENT} label's parts, in {@link #agentParts}' order. */
    public static final List<Dimension> AGENT_PARTS = List.of(BROWSER, OS, DEVICE_CLASS);

    /** The longest label the dimension tables hold. */
    public static final int MAX_LABEL = 255;

    public final int id;

    Dimension(int id) {
        this.id = id;
    }

    /**
     * The {@link #AGENT} label of a browser, OS and device class (each may be {@code null}, not counted), or
     * {@code null} when they cannot be told apart again from it: none given, an empty one, one that holds the
     * separator, or longer than {@link #MAX_LABEL} in all.
     */
    public static String agentLabel(String browser, String os, String deviceClass) {
        if (browser == null && os == null && deviceClass == null) {
            return null;
        }
        String label = part(browser) + SEPARATOR + part(os) + SEPARATOR + part(deviceClass);
        return label.length() > MAX_LABEL || !joinable(browser) || !joinable(os) || !joinable(deviceClass)
                ? null
                : label;
    }

    /**
     * The browser, OS and device class of an {@link #AGENT} label, in that order, {@code null} where it counted
     * none; {@code null} for a label that is not one.
     */
    public static String[] agentParts(String label) {
        int first = label.indexOf(SEPARATOR);
        int second = first < 0 ? -1 : label.indexOf(SEPARATOR, first + 1);
        if (second < 0 || label.indexOf(SEPARATOR, second + 1) >= 0) {
            return null;
        }
        return new String[] {
            nullIfEmpty(label.substring(0, first)),
            nullIfEmpty(label.substring(first + 1, second)),
            nullIfEmpty(label.substring(second + 1))
        };
    }

    private static String part(String value) {
        return value == null ? "" : value;
    }

    private static boolean joinable(String value) {
        return value == null || (!value.isEmpty() && value.indexOf(SEPARATOR) < 0);
    }

    private static String nullIfEmpty(String value) {
        return value.isEmpty() ? null : value;
    }
}
