/**
 * Domains as far as Shortgate has them: the default domain's not-found redirects ({@code DomainRedirects}), stored
 * in the database so every pod applies the same ones, and held in memory for the redirect path.
 */
@NamedInterface("domains")
package dev.shortgate.link.domain;

import org.springframework.modulith.NamedInterface;
