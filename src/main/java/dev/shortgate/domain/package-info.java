/**
 * Short domains (issue 26; docs/adr/0024-many-short-domains.md): the host names one gateway serves short links on.
 * The default domain is the host of {@code shortgate.base-url}; it is implicit (id 0, no row). Others are rows of
 * the {@code domains} table, added, listed and removed by admins ({@code DomainController},
 * {@code /api/v1/domains}). Every pod holds the whole list in memory ({@link dev.shortgate.domain.Domains}) and
 * reloads it every {@code shortgate.domains.refresh-interval}, so looking a host up never does I/O; the URL policy
 * asks it too ({@link dev.shortgate.security.AddedDomains}), to refuse links to any of the domains as self-links.
 *
 * <p>Named interface: {@code registry} ({@link dev.shortgate.domain.Domains} and {@link
 * dev.shortgate.domain.Domain}).
 */
@ApplicationModule(allowedDependencies = {"security :: principal", "security :: url-policy", "system :: *"})
package dev.shortgate.domain;

import org.springframework.modulith.ApplicationModule;
