package dev.shortgate.security;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.settings.ShortgateProperties;
import inet.ipaddr.IPAddress;

/**
 * The hosts {@link UrlPolicy} refuses by name: this shortener's own (the host of {@code shortgate.base-url},
 * {@code own-domains} and the short domains added at run time, {@link AddedDomains}), other link shorteners
 * ({@code shortener-domains}) and denied hosts ({@code deny-hosts}), each with its subdomains. Configured entries are written as {@link UrlPolicy#normalize}
 * writes hosts, so a normalised host is compared as it is; an entry that is no host fails startup.
 */
final class RefusedHosts {

    private final Set<String> ownHosts;
    private final AddedDomains addedDomains;
    private final Set<String> shortenerHosts;
    private final Set<String> deniedHosts;

    /** Throws {@link IllegalArgumentException} for a list entry that is no host. */
    RefusedHosts(ShortgateProperties shortgate, UrlPolicyProperties properties, AddedDomains addedDomains) {
        Set<String> own = new LinkedHashSet<>();
        own.add(canonicalConfiguredHost(shortgate.baseUrl().getHost(), "shortgate.base-url"));
        own.addAll(canonicalConfiguredHosts(properties.ownDomains(), "shortgate.security.url.own-domains"));
        this.ownHosts = Set.copyOf(own);
        this.addedDomains = addedDomains;
        this.shortenerHosts =
                canonicalConfiguredHosts(properties.shortenerDomains(), "shortgate.security.url.shortener-domains");
        this.deniedHosts = canonicalConfiguredHosts(properties.denyHosts(), "shortgate.security.url.deny-hosts");
    }

    /** Refuses {@code host}, as {@link UrlPolicy#normalize} writes it, when it is one of these or under one. */
    void check(String host) {
        if (matches(host, own -> ownHosts.contains(own) || addedDomains.contains(own))) {
            throw UrlPolicy.invalid(
                    Problem.URL_SELF_LINK,
                    "url points at this shortener (" + host + "); links to short "
                            + "links are refused to prevent loops.");
        }
        if (matches(host, shortenerHosts::contains)) {
            throw UrlPolicy.invalid(
                    Problem.URL_SHORTENER_NOT_ALLOWED,
                    "url points at another link shortener (" + host + "); shorten the final URL instead.");
        }
        if (matches(host, deniedHosts::contains)) {
            throw UrlPolicy.invalid(
                    Problem.URL_HOST_DENIED, "url points at a host that is not allowed (" + host + ").");
        }
    }

    /** Whether {@code host} is one of {@code domains} or a subdomain of one; IP literals match only exactly. */
    private static boolean matches(String host, Predicate<String> domains) {
        if (domains.test(host)) {
            return true;
        }
        if (host.startsWith("[") || IpLiterals.endsInANumber(host)) {
            return false;
        }
        for (int dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
            if (domains.test(host.substring(dot + 1))) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> canonicalConfiguredHosts(Collection<String> hosts, String property) {
        return hosts.stream()
                .map(host -> canonicalConfiguredHost(host, property))
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * A configured host in the form {@link UrlPolicy#normalize} writes hosts: punycode, lower case, no trailing dot,
     * IPv4 in dotted decimal, IPv6 in brackets and canonical form.
     */
    static String canonicalConfiguredHost(String host, String property) {
        String h = host == null ? "" : host.trim();
        IPAddress address = null;
        if (h.startsWith("[") && h.endsWith("]")) {
            address = IpLiterals.parseIpv6(h.substring(1, h.length() - 1));
        } else if (!h.isEmpty()) {
            String ascii = HostNames.toAscii(h);
            if (ascii != null && !IpLiterals.endsInANumber(ascii)) {
                return ascii;
            }
            address = ascii == null ? null : IpLiterals.parseIpv4(ascii);
        }
        if (address != null) {
            return IpLiterals.host(address);
        }
        throw new IllegalArgumentException(property + " must hold host names such as example.com (no scheme, "
                + "port or path), got '" + host + "'");
    }
}
