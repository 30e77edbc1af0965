package dev.shortgate.security;

import com.ibm.icu.text.SpoofChecker;
import com.ibm.icu.text.UnicodeSet;

/**
 * Homograph checks for one host label in Unicode form (UTS #39, through ICU's {@link SpoofChecker}). Checks are
 * thread-safe once the checker is built.
 */
final class Homographs {

    /**
     * Highly restrictive: a label uses one script, or Latin with Han and the Japanese or Korean scripts that are
     * written with it; digits come from one system; no invisible or hidden-overlay characters.
     */
    private static final SpoofChecker CHECKER = new SpoofChecker.Builder()
            .setChecks(SpoofChecker.RESTRICTION_LEVEL
                    | SpoofChecker.MIXED_NUMBERS
                    | SpoofChecker.INVISIBLE
                    | SpoofChecker.HIDDEN_OVERLAY)
            .setRestrictionLevel(SpoofChecker.RestrictionLevel.HIGHLY_RESTRICTIVE)
            .build();

    /** Every character that appears in the confusable skeleton of an ASCII host-name character. */
    private static final UnicodeSet ASCII_SKELETON_CHARACTERS;

    static {
        UnicodeSet set = new UnicodeSet();
        for (char c : "abcdefghijklmnopqrstuvwxyz0123456789-".toCharArray()) {
            set.addAll(CHECKER.getSkeleton(String.valueOf(c)));
        }
        ASCII_SKELETON_CHARACTERS = set.freeze();
    }

    private Homographs() {}

    /** Whether the label fails the restriction level (mixed scripts), mixes digit systems or hides characters. */
    static boolean isSpoof(String label) {
        return CHECKER.failsChecks(label);
    }

    /**
     * Whether a label that is not ASCII has the confusable skeleton of an ASCII label, so it is a whole-script
     * (or same-script) look-alike such as Cyrillic {@code аррӏе} for {@code apple} or Latin {@code ɑpple}.
     */
    static boolean looksLikeAscii(String label) {
        if (label.chars().allMatch(c -> c < 0x80)) {
            return false;
        }
        return ASCII_SKELETON_CHARACTERS.containsAll(CHECKER.getSkeleton(label));
    }
}
