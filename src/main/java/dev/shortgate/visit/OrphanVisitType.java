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

    /** Separates a tally key's type from the domain id of an orphan visit on a domain other than the default one. */
    static final char TALLY_KEY_DOMAIN = '~';

    public final int id;
    private final String value;
    /** The {@link VisitTally} key of this type's orphan visits on the default domain. */
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

    /**
     * The {@link VisitTally} key of this type's orphan visits on a domain: {@link #tallyKey} on the default domain
     * (id 0, no allocation), {@code /invalid_short_url~3} on domain 3.
     */
    public String tallyKey(int domainId) {
        return domainId == 0 ? tallyKey : tallyKey + TALLY_KEY_DOMAIN + domainId;
    }

    /** The type a {@link VisitTally} key stands for, or {@code null} for a link's code. */
    public static OrphanVisitType ofTallyKey(String key) {
        if (key.isEmpty() || key.charAt(0) != TALLY_KEY_PREFIX) {
            return null;
        }
        int tilde = key.indexOf(TALLY_KEY_DOMAIN);
        for (OrphanVisitType type : values()) {
            if (tilde < 0
                    ? type.tallyKey.equals(key)
                    : key.startsWith(type.tallyKey) && tilde == type.tallyKey.length()) {
                return type;
            }
        }
        return null;
    }

    /** The domain id of an orphan visit's {@link VisitTally} key ({@link #tallyKey(int)}): 0 for the default one. */
    public static int domainOfTallyKey(String key) {
        int tilde = key.indexOf(TALLY_KEY_DOMAIN);
        return tilde < 0 ? 0 : Integer.parseInt(key, tilde + 1, key.length(), 10);
    }
}
