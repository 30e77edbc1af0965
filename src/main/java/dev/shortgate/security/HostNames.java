package dev.shortgate.security;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.ibm.icu.text.IDNA;
import dev.shortgate.system.problem.Problem;

/**
 * Host names (not IP literals) as {@link UrlPolicy} judges them: UTS #46 non-transitional IDNA with STD3 rules, as
 * browsers do it, ICU's homograph checks ({@link Homographs}), and the names that exist only inside private
 * networks. No DNS lookup is ever made: names are judged as written.
 */
final class HostNames {

    /** UTS #46 non-transitional processing, as browsers do it, with STD3 rules (letters, digits and hyphens). */
    private static final IDNA IDNA_UTS46 = IDNA.getUTS46Instance(IDNA.NONTRANSITIONAL_TO_ASCII
            | IDNA.NONTRANSITIONAL_TO_UNICODE
            | IDNA.USE_STD3_RULES
            | IDNA.CHECK_BIDI
            | IDNA.CHECK_CONTEXTJ
            | IDNA.CHECK_CONTEXTO);

    /**
     * Real host names such as {@code r3---sn-abc.googlevideo.com} have hyphens in the 3rd and 4th position, and
     * browsers accept them (WHATWG sets CheckHyphens to false); a leading or trailing hyphen stays refused.
     */
    private static final Set<IDNA.Error> TOLERATED_IDNA_ERRORS = EnumSet.of(IDNA.Error.HYPHEN_3_4);

    /** Suffixes of names that exist only inside private networks (RFC 6761, RFC 6762, RFC 8375, ICANN). */
    private static final List<String> PRIVATE_NAME_SUFFIXES =
            List.of(".localhost", ".local", ".localdomain", ".home.arpa", ".internal");

    private HostNames() {}

    /** The host as lower-case punycode without a trailing dot, or {@code null} when it is no valid host name. */
    static String toAscii(String host) {
        if (host.indexOf('%') >= 0) {
            return null;
        }
        IDNA.Info info = new IDNA.Info();
        String ascii = IDNA_UTS46
                .nameToASCII(host, new StringBuilder(host.length() + 16), info)
                .toString();
        if (hasErrors(info)) {
            return null;
        }
        ascii = ascii.toLowerCase(Locale.ROOT);
        if (ascii.endsWith(".")) {
            ascii = ascii.substring(0, ascii.length() - 1);
        }
        if (ascii.isEmpty() || ascii.startsWith(".") || ascii.endsWith(".") || ascii.contains("..")) {
            return null;
        }
        return ascii;
    }

    /** Refuses a host with a label that mixes scripts or imitates an ASCII label; {@code host} is punycode. */
    static void checkHomographs(String host) {
        String[] labels = host.split("\\.");
        boolean asciiTld = !labels[labels.length - 1].startsWith("xn--");
        for (String label : labels) {
            if (!label.startsWith("xn--")) {
                continue;
            }
            IDNA.Info info = new IDNA.Info();
            String unicode =
                    IDNA_UTS46.labelToUnicode(label, new StringBuilder(), info).toString();
            if (hasErrors(info)) {
                throw UrlPolicy.invalid(Problem.INVALID_URL, "url has an invalid host name.");
            }
            if (Homographs.isSpoof(unicode)) {
                throw UrlPolicy.invalid(
                        Problem.URL_HOMOGRAPH,
                        "url has a host label that mixes scripts or " + "characters that look alike (" + label + ").");
            }
            if (asciiTld && Homographs.looksLikeAscii(unicode)) {
                throw UrlPolicy.invalid(
                        Problem.URL_HOMOGRAPH, "url has a host label that imitates an ASCII name (" + label + ").");
            }
        }
    }

    /** Whether a host name can be public: it has a dot and no private-only suffix. */
    static boolean isPublic(String host) {
        if (host.indexOf('.') < 0) {
            return false; // localhost, metadata, instance-data, intranet: resolved by search domains inside
        }
        for (String suffix : PRIVATE_NAME_SUFFIXES) {
            if (host.endsWith(suffix)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasErrors(IDNA.Info info) {
        if (!info.hasErrors()) {
            return false;
        }
        Set<IDNA.Error> errors = EnumSet.copyOf(info.getErrors());
        errors.removeAll(TOLERATED_IDNA_ERRORS);
        return !errors.isEmpty();
    }
}
