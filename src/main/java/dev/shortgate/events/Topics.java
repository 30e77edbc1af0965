package dev.shortgate.events;

/** Shlink's topics ({@code module/Core/src/EventDispatcher/Topic.php}). */
public final class Topics {

    public static final String NEW_VISIT = "https://shlink.io/new-visit";
    public static final String NEW_ORPHAN_VISIT = "https://shlink.io/new-orphan-visit";
    public static final String NEW_SHORT_URL = "https://shlink.io/new-short-url";

    private Topics() {}

    /** {@code https://shlink.io/new-visit/{shortCode}}: the visits of one short URL. */
    public static String newShortUrlVisit(String code) {
        return NEW_VISIT + "/" + code;
    }
}
