package dev.shortgate.shlink;

import java.util.Optional;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.Domains;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.settings.ShortgateProperties;

/**
 * Shlink's domains as Shortgate has them: the default one, named by its authority (host and port of
 * {@code shortgate.base-url}) or {@code DEFAULT}, and those added through {@code /api/v1/domains}, named by host.
 */
final class ShlinkDomains {

    static final String DEFAULT = "DEFAULT";

    private ShlinkDomains() {}

    /**
     * The domain a {@code domain} query or field names: absent or blank is the default domain, or the caller's own
     * for a key limited to one domain; {@code DEFAULT} or the base URL's authority the default domain; any other the
     * domain of that host, or empty when this gateway has none. A key limited to one domain gets 403
     * {@code domain-not-allowed} for any other, known or not.
     */
    static Optional<Domain> resolve(
            String domain, ApiPrincipal caller, Domains domains, ShortgateProperties properties) {
        if (domain == null || domain.isBlank()) {
            return Optional.of(domains.forCaller(null, caller));
        }
        Optional<Domain> found = DEFAULT.equals(domain)
                        || domain.equalsIgnoreCase(properties.baseUrl().getAuthority())
                ? Optional.of(domains.defaultDomain())
                : domains.find(domain);
        if (caller.isDomainLimited()
                && (found.isEmpty() || !caller.mayUse(found.get().id()))) {
            throw ApiPrincipal.domainNotAllowed(found.map(Domain::host).orElse(domain));
        }
        return found;
    }

    /** Whether a {@code domain} parameter means the default domain; no parameter (or a blank one) does. */
    static boolean isDefault(String domain, ShortgateProperties properties) {
        return domain == null
                || domain.isBlank()
                || DEFAULT.equals(domain)
                || domain.equalsIgnoreCase(properties.baseUrl().getAuthority());
    }
}
