package dev.shortgate.security;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

import com.google.common.base.CharMatcher;
import com.google.common.net.PercentEscaper;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.system.settings.ShortgateProperties;
import inet.ipaddr.IPAddress;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.modulith.NamedInterface;
import org.springframework.stereotype.Component;

/**
 * Decides whether a URL may be shortened, and normalises it so that the same URL always yields the same code.
 * Create, batch and PATCH all go through {@link #normalize}.
 *
 * <p>Accepted: absolute {@code http} and {@code https} URLs with a host, no credentials, no backslashes, no
 * control characters or spaces, at most {@value #MAX_LENGTH} characters, whose host is
 * <ul>
 *   <li>a valid host name ({@link HostNames}) or IP literal ({@link IpLiterals}) as a browser parses it (WHATWG
 *       URL Standard; UTS #46 non-transitional IDNA with STD3 rules), so {@code 0x7f.1} is the IPv4 address
 *       {@code 127.0.0.1} and {@code 1.2.3.4.5} is no host at all;</li>
 *   <li>globally reachable: not loopback, private, link-local, CGNAT, multicast, reserved or documentation
 *       address, IPv4-mapped or NAT64/6to4 forms of those, nor {@code localhost}, a single-label name (such as
 *       the cloud metadata names {@code metadata} and {@code instance-data}) or a name under {@code .localhost},
 *       {@code .local}, {@code .localdomain}, {@code .home.arpa} or {@code .internal} (such as
 *       {@code metadata.google.internal}) &mdash; unless {@code allow-private-hosts} is set;</li>
 *   <li>not this shortener (the host of {@code shortgate.base-url}, {@code own-domains}, or any short domain added
 *       at run time, {@link AddedDomains}), another shortener, or a denied host, nor a subdomain of one
 *       ({@link RefusedHosts});</li>
 *   <li>no homograph: each label passes ICU's UTS #39 {@code SpoofChecker} at the highly restrictive level (no
 *       mixing of Latin with Cyrillic, Greek and the like), and no label that is not ASCII looks exactly like an
 *       ASCII one (a whole-script confusable such as Cyrillic {@code аррӏе}), unless its top-level domain is not
 *       ASCII either.</li>
 * </ul>
 * No DNS lookup is ever made: names are judged as written.
 *
 * <p>Normalising lower-cases the scheme and host, writes the host as punycode without a trailing dot, writes a
 * numeric IPv4 host in dotted decimal and an IPv6 host in its canonical compressed form, drops the default port,
 * writes an empty path as {@code /}, and percent-encodes characters that may not appear raw in a URL (non-ASCII,
 * {@code |}, {@code ^} and the like). The path, query and fragment are otherwise kept exactly as given; existing
 * escapes such as {@code %0d%0a} stay encoded. The result is ASCII without controls or spaces, so it is always
 * one single {@code Location} header value.
 *
 * <p>Each refusal is a {@link ProblemException} with its own stable type, thrown before anything is written.
 */
@Component
@NamedInterface("url-policy")
public class UrlPolicy {

    public static final int MAX_LENGTH = 4096;

    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");
    private static final CharMatcher AUTHORITY_END = CharMatcher.anyOf("/?#");

    /** What may stand raw in a path, query or fragment besides letters and digits; the rest is percent-encoded. */
    private static final PercentEscaper URL_REST = new PercentEscaper("-._~:/?#@!$&'()*+,;=%", false);

    private final RefusedHosts refusedHosts;
    private final boolean allowPrivateHosts;

    /**
     * The policy with the given settings, refusing the short domains the domain feature holds as self-links; throws
     * {@link IllegalArgumentException} for a list entry that is no host.
     */
    @Autowired
    UrlPolicy(ShortgateProperties shortgate, UrlPolicyProperties properties, ObjectProvider<AddedDomains> added) {
        this(shortgate, properties, added.getIfAvailable(() -> AddedDomains.NONE));
    }

    /** The policy with the given settings; throws {@link IllegalArgumentException} for a list entry that is no host. */
    public UrlPolicy(ShortgateProperties shortgate, UrlPolicyProperties properties, AddedDomains added) {
        this.refusedHosts = new RefusedHosts(shortgate, properties, added);
        this.allowPrivateHosts = properties.allowPrivateHosts();
    }

    /** The policy with the given settings and no short domain but the configured ones. */
    public UrlPolicy(ShortgateProperties shortgate, UrlPolicyProperties properties) {
        this(shortgate, properties, AddedDomains.NONE);
    }

    /** The policy with the default {@code shortgate.security.url.*} settings. */
    public UrlPolicy(ShortgateProperties shortgate) {
        this(shortgate, UrlPolicyProperties.defaults());
    }

    /** The normalised form of {@code raw}, or a 400 problem saying why it is refused. */
    public String normalize(String raw) {
        if (raw == null || raw.isEmpty()) {
            throw invalid(Problem.INVALID_URL, "url is required.");
        }
        if (raw.length() > MAX_LENGTH) {
            throw invalid(
                    Problem.URL_TOO_LONG,
                    "url is " + raw.length() + " characters; at most " + MAX_LENGTH + " are allowed.");
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= 0x20
                    || c == 0x7F
                    || Character.isWhitespace(c)
                    || Character.isSpaceChar(c)
                    || (c >= 0x80 && c <= 0x9F)) {
                throw invalid(Problem.INVALID_URL, "url contains a space or control character at index " + i + ".");
            }
            if (c == '\\') {
                throw invalid(Problem.INVALID_URL, "url contains a backslash.");
            }
        }
        int colon = raw.indexOf(':');
        if (colon <= 0 || !SCHEME.matcher(raw).region(0, colon).matches()) {
            throw invalid(Problem.INVALID_URL, "url must be absolute, such as https://example.com/page.");
        }
        String scheme = raw.substring(0, colon).toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw invalid(
                    Problem.URL_SCHEME_NOT_ALLOWED,
                    "Only http and https URLs can be shortened, not '" + scheme + ":'.");
        }
        if (!raw.startsWith("//", colon + 1)) {
            throw invalid(Problem.INVALID_URL, "url must have the form " + scheme + "://host/path.");
        }
        int authorityStart = colon + 3;
        int authorityEnd = AUTHORITY_END.indexIn(raw, authorityStart);
        authorityEnd = authorityEnd < 0 ? raw.length() : authorityEnd;
        String authority = raw.substring(authorityStart, authorityEnd);
        if (authority.indexOf('@') >= 0) {
            throw invalid(Problem.URL_USERINFO_NOT_ALLOWED, "url must not contain a user name or password.");
        }
        String host;
        String port = null;
        boolean publicHost;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw invalid(Problem.INVALID_URL, "url has an unterminated IPv6 host.");
            }
            IPAddress address = IpLiterals.parseIpv6(authority.substring(1, close));
            if (address == null) {
                throw invalid(Problem.INVALID_URL, "url has an invalid IPv6 host.");
            }
            host = IpLiterals.host(address);
            publicHost = IpLiterals.isPublic(address);
            String rest = authority.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw invalid(Problem.INVALID_URL, "url has an invalid host.");
                }
                port = rest.substring(1);
            }
        } else {
            int portColon = authority.lastIndexOf(':');
            String rawHost = portColon >= 0 ? authority.substring(0, portColon) : authority;
            port = portColon >= 0 ? authority.substring(portColon + 1) : null;
            if (rawHost.isEmpty()) {
                throw invalid(Problem.INVALID_URL, "url has no host.");
            }
            host = HostNames.toAscii(rawHost);
            if (host == null) {
                throw invalid(Problem.INVALID_URL, "url has an invalid host name.");
            }
            if (IpLiterals.endsInANumber(host)) {
                IPAddress address = IpLiterals.parseIpv4(host);
                if (address == null) {
                    throw invalid(Problem.INVALID_URL, "url has a numeric host that is not a valid IPv4 address.");
                }
                host = IpLiterals.host(address);
                publicHost = IpLiterals.isPublic(address);
            } else {
                HostNames.checkHomographs(host);
                publicHost = HostNames.isPublic(host);
            }
        }
        String normalizedPort = normalizePort(scheme, port);
        if (!publicHost && !allowPrivateHosts) {
            throw invalid(
                    Problem.URL_HOST_NOT_ALLOWED,
                    "url points at a private or reserved address (" + host
                            + "); only publicly reachable hosts can be shortened.");
        }
        refusedHosts.check(host);
        String rest = encodeRest(raw.substring(authorityEnd), authorityEnd);
        if (rest.isEmpty() || rest.charAt(0) != '/') {
            rest = "/" + rest;
        }
        String normalized = scheme + "://" + host + normalizedPort + rest;
        if (normalized.length() > MAX_LENGTH) {
            throw invalid(
                    Problem.URL_TOO_LONG,
                    "url is " + normalized.length() + " characters once normalised; at " + "most " + MAX_LENGTH
                            + " are allowed.");
        }
        try {
            URI uri = new URI(normalized);
            if (uri.getHost() == null) {
                throw invalid(Problem.INVALID_URL, "url has an invalid host.");
            }
        } catch (URISyntaxException e) {
            throw invalid(Problem.INVALID_URL, "url is not a valid URL: " + e.getReason() + ".");
        }
        return normalized;
    }

    private static String normalizePort(String scheme, String port) {
        if (port == null || port.isEmpty()) {
            return "";
        }
        int value = PORT.matcher(port).matches() ? Integer.parseInt(port) : 0;
        if (value < 1 || value > 65535) {
            throw invalid(Problem.INVALID_URL, "url has an invalid port.");
        }
        boolean isDefault = (scheme.equals("http") && value == 80) || (scheme.equals("https") && value == 443);
        return isDefault ? "" : ":" + value;
    }

    /**
     * Percent-encodes what may not stand raw in a path, query or fragment (as UTF-8); first checks that escapes are
     * whole and that surrogates are paired. {@code offset} is where {@code rest} starts in the URL, for the detail.
     */
    private static String encodeRest(String rest, int offset) {
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c == '%'
                    && (i + 2 >= rest.length()
                            || !HexFormat.isHexDigit(rest.charAt(i + 1))
                            || !HexFormat.isHexDigit(rest.charAt(i + 2)))) {
                throw invalid(
                        Problem.INVALID_URL, "url has an incomplete percent-escape at index " + (offset + i) + ".");
            }
            if (Character.isHighSurrogate(c) && i + 1 < rest.length() && Character.isLowSurrogate(rest.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw invalid(Problem.INVALID_URL, "url has an unpaired surrogate at index " + (offset + i) + ".");
            }
        }
        return URL_REST.escape(rest);
    }

    static ProblemException invalid(Problem problem, String detail) {
        return problem.toException(detail).with("field", "url");
    }
}
