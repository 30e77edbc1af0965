/**
 * API keys, rate limits, trusted proxies and the URL policy.
 *
 * <p>Named interfaces: {@code principal} (who calls the API, {@link dev.shortgate.security.ApiPrincipal}, what its
 * key may do, and {@link dev.shortgate.security.KeyDomains}, which the domain feature implements so a key can be
 * limited to one domain), {@code url-policy} (which URLs may be shortened, {@link dev.shortgate.security.UrlPolicy}) and
 * {@code clients} (who the client of a request is, {@link dev.shortgate.security.ClientIpResolver}, and how often it
 * may ask, {@link dev.shortgate.security.ApiRateLimiter}).
 */
@ApplicationModule(allowedDependencies = {"system :: *"})
package dev.shortgate.security;

import org.springframework.modulith.ApplicationModule;
