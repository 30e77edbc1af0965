package dev.shortgate.shlink;

import dev.shortgate.system.settings.ShortgateProperties;

/**
 * Shlink's domains as Shortgate has them: only the default one, named by its authority (host and port of
 * {@code shortgate.base-url}) or, where Shlink's API takes a domain in a path, {@code DEFAULT}. Any other domain is
 * one Shlink does not know.
 */
final class ShlinkDomains {

    static final String DEFAULT = "DEFAULT";

    private ShlinkDomains() {}

    /** Whether a {@code domain} parameter means the default domain; no parameter (or a blank one) does. */
    static boolean isDefault(String domain, ShortgateProperties properties) {
        return domain == null
                || domain.isBlank()
                || DEFAULT.equals(domain)
                || domain.equalsIgnoreCase(properties.baseUrl().getAuthority());
    }
}
