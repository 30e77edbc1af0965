package dev.shortgate.security;

import java.util.List;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Which target URLs may be shortened ({@code shortgate.security.url.*}). Host entries are compared the way
 * hosts in URLs are: case-insensitively, without a trailing dot, as punycode (an entry may be written in
 * Unicode), and each entry also matches every subdomain. An entry that is not a valid host (a URL, a port, a
 * path) stops the application at start-up.
 *
 * @param ownDomains        domains that are this shortener, besides the host of {@code shortgate.base-url}
 *                          (which is always included): links to them are refused as loops
 * @param shortenerDomains  other link shorteners: links to them are refused, so nobody hides a chain of
 *                          redirects behind us. Setting the list replaces the defaults; set it to an empty
 *                          value to allow them all
 * @param denyHosts         hosts refused for any other reason (abuse, phishing)
 * @param allowPrivateHosts an escape hatch for tests and labs only: when {@code true}, loopback, private,
 *                          link-local, reserved and metadata addresses and names (such as {@code 127.0.0.1} or
 *                          {@code localhost}) are accepted as targets. Never enable it in front of the internet
 */
@ConfigurationProperties("shortgate.security.url")
@Validated
public record UrlPolicyProperties(
        List<@NotBlank String> ownDomains,
        List<@NotBlank String> shortenerDomains,
        List<@NotBlank String> denyHosts,
        @DefaultValue("false") boolean allowPrivateHosts) {

    /** The default {@code shortener-domains}: widely used public link shorteners. */
    public static final List<String> DEFAULT_SHORTENERS = List.of(
            "bit.ly",
            "bitly.com",
            "j.mp",
            "tinyurl.com",
            "t.co",
            "goo.gl",
            "ow.ly",
            "is.gd",
            "v.gd",
            "buff.ly",
            "rebrand.ly",
            "rebrandly.com",
            "cutt.ly",
            "shorturl.at",
            "tiny.cc",
            "rb.gy",
            "bl.ink",
            "short.io",
            "s.id",
            "lnkd.in",
            "dub.sh",
            "dub.co",
            "kutt.it",
            "t.ly",
            "tiny.one",
            "shorte.st",
            "adf.ly",
            "trib.al",
            "y2u.be",
            "qrco.de",
            "soo.gd",
            "clck.ru",
            "urlz.fr",
            "x.co",
            "snip.ly",
            "po.st",
            "mcaf.ee",
            "tr.im",
            "cli.gs",
            "u.to",
            "bc.vc",
            "ouo.io",
            "shorturl.me",
            "spoo.me",
            "2.gy");

    /** Absent lists take their defaults; an empty value ({@code shortener-domains=}) means an empty list. */
    public UrlPolicyProperties {
        ownDomains = ownDomains == null ? List.of() : List.copyOf(ownDomains);
        shortenerDomains = shortenerDomains == null ? DEFAULT_SHORTENERS : List.copyOf(shortenerDomains);
        denyHosts = denyHosts == null ? List.of() : List.copyOf(denyHosts);
    }

    /** The settings with every default, as an application without {@code shortgate.security.url.*} has them. */
    public static UrlPolicyProperties defaults() {
        return new UrlPolicyProperties(null, null, null, false);
    }

    /** These settings with other own domains. */
    public UrlPolicyProperties withOwnDomains(String... domains) {
        return new UrlPolicyProperties(List.of(domains), shortenerDomains, denyHosts, allowPrivateHosts);
    }

    /** These settings with other shortener domains. */
    public UrlPolicyProperties withShortenerDomains(String... domains) {
        return new UrlPolicyProperties(ownDomains, List.of(domains), denyHosts, allowPrivateHosts);
    }

    /** These settings with another deny list. */
    public UrlPolicyProperties withDenyHosts(String... hosts) {
        return new UrlPolicyProperties(ownDomains, shortenerDomains, List.of(hosts), allowPrivateHosts);
    }

    /** These settings with private hosts allowed or not. */
    public UrlPolicyProperties withAllowPrivateHosts(boolean allow) {
        return new UrlPolicyProperties(ownDomains, shortenerDomains, denyHosts, allow);
    }
}
