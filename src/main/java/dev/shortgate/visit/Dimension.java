package dev.shortgate.visit;

/** The dimensions visits are counted by, with their fixed ids in {@code visit_dim_stats.dim}. */
public enum Dimension {
    COUNTRY(1),
    BROWSER(2),
    OS(3),
    DEVICE_CLASS(4),
    REFERRER_HOST(5),
    /** The target a redirect rule or split chose (links with rules only; bounded like every label). */
    DESTINATION(6);

    /** The label visits get when their dimension cannot be kept apart (label or distinct-entry bounds). */
    public static final String OTHER = "other";

    public final int id;

    Dimension(int id) {
        this.id = id;
    }
}
