package dev.shortgate.visit;

import dev.shortgate.visit.counts.VisitTally;
import org.springframework.modulith.NamedInterface;

/**
 * What an orphan visit asked for, in Shlink's terms: a request that reached no link. Each type has a stable id
 * (the {@code type} column of {@code orphan_visit} and {@code orphan_visit_stats}) and Shlink's name.
 */
@NamedInterface({"recording", "orphans", "taps"})
public enum OrphanVisitType {
    /** {@code GET /{code}} for a code that leads nowhere (unknown, disabled or deleted). */
    INVALID_SHORT_URL(1, "invalid_short_url"),
    /** {@code GET /}: the base URL itself. */
    BASE_URL(2, "base_url"),
    /** Any other {@code GET} on the traffic port that was answered 404 (outside {@code /api} and {@code /rest}). */
    REGULAR_404(3, "regular_404");

    /** Tally keys of orphan visits start with this; no short code can ({@code link.Link#CODE}). */
    static final char TALLY_KEY_PREFIX = '/';

    public final int id;
    private final String value;
    public final String tallyKey;

    OrphanVisitType(int id, String value) {
        this.id = id;
        this.value = value;
        this.tallyKey = TALLY_KEY_PREFIX + value;
    }

    /** Shlink's name of the type, e.g. {@code invalid_short_url}. */
    public String value() {
        return value;
    }

    /** The type of this Shlink name, or {@code null} when it names none. */
    public static OrphanVisitType parse(String value) {
        for (OrphanVisitType type : values()) {
            if (type.value.equals(value)) {
                return type;
            }
        }
        return null;
    }

    public static OrphanVisitType ofId(int id) {
        for (OrphanVisitType type : values()) {
            if (type.id == id) {
                return type;
            }
        }
        throw new IllegalArgumentException("No orphan visit type has the id " + id);
    }

    /** The type a {@link VisitTally} key stands for, or {@code null} for a link's code. */
    public static OrphanVisitType ofTallyKey(String key) {
        if (key.isEmpty() || key.charAt(0) != TALLY_KEY_PREFIX) {
            return null;
        }
        for (OrphanVisitType type : values()) {
            if (type.tallyKey.equals(key)) {
                return type;
            }
        }
        return null;
    }
}
