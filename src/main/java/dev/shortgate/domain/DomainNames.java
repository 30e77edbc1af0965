package dev.shortgate.domain;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import com.ibm.icu.text.IDNA;

/**
 * Checks and normalises the host name of a domain: UTS #46 non-transitional IDNA with STD3 rules (as browsers map
 * a host), lower-case punycode, no trailing dot, at least two labels, no IP literal, no port. ICU does the mapping
 * because a hand-made one would disagree with browsers on the names that matter (IDNs, mixed case, full stops).
 */
final class DomainNames {

    private static final IDNA IDNA_UTS46 = IDNA.getUTS46Instance(IDNA.NONTRANSITIONAL_TO_ASCII
            | IDNA.NONTRANSITIONAL_TO_UNICODE
            | IDNA.USE_STD3_RULES
            | IDNA.CHECK_BIDI
            | IDNA.CHECK_CONTEXTJ
            | IDNA.CHECK_CONTEXTO);

    private static final Set<IDNA.Error> TOLERATED = EnumSet.of(IDNA.Error.HYPHEN_3_4);

    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    /** The last label of a DNS name is never all digits; this also keeps IPv4 literals out. */
    private static final Pattern NUMERIC = Pattern.compile("[0-9]+");

    private DomainNames() {}

    /** The host as lower-case punycode, or {@code null} when it is not a valid DNS name. */
    static String normalise(String host) {
        if (host == null || host.isBlank() || host.length() > 253 || host.indexOf('%') >= 0) {
            return null;
        }
        IDNA.Info info = new IDNA.Info();
        String ascii = IDNA_UTS46
                .nameToASCII(host.strip(), new StringBuilder(host.length() + 16), info)
                .toString();
        if (info.hasErrors()) {
            Set<IDNA.Error> errors = EnumSet.copyOf(info.getErrors());
            errors.removeAll(TOLERATED);
            if (!errors.isEmpty()) {
                return null;
            }
        }
        ascii = ascii.toLowerCase(Locale.ROOT);
        if (ascii.endsWith(".")) {
            ascii = ascii.substring(0, ascii.length() - 1);
        }
        if (ascii.isEmpty() || ascii.length() > 253) {
            return null;
        }
        String[] labels = ascii.split("\\.", -1);
        if (labels.length < 2 || NUMERIC.matcher(labels[labels.length - 1]).matches()) {
            return null;
        }
        for (String label : labels) {
            if (!LABEL.matcher(label).matches()) {
                return null;
            }
        }
        return ascii;
    }
}
