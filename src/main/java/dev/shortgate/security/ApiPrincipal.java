package dev.shortgate.security;

import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.modulith.NamedInterface;
import org.springframework.web.server.ServerWebExchange;

/**
 * The caller of an API request, as its key identifies it.
 *
 * @param keyId the key's id, or {@code null} for the admin key configured with {@code SHORTGATE_ADMIN_KEY}
 * @param name  the key's name, for logs and listings (never the key itself)
 * @param scope    what the key may do
 * @param domainId the one short domain the key is limited to (Shlink's {@code DOMAIN_SPECIFIC} role: {@code 0} is
 *                 the default domain), or {@code null} for a key that sees every domain
 */
@NamedInterface("principal")
public record ApiPrincipal(Long keyId, String name, ApiScope scope, Integer domainId) {

    /** A key that sees every domain. */
    public ApiPrincipal(Long keyId, String name, ApiScope scope) {
        this(keyId, name, scope, null);
    }

    static final String ATTRIBUTE = ApiPrincipal.class.getName();

    /** The principal the API key filter put on this exchange. */
    public static ApiPrincipal of(ServerWebExchange exchange) {
        ApiPrincipal principal = exchange.getAttribute(ATTRIBUTE);
        if (principal == null) { // the API key filter did not run for this path: never serve it unauthenticated
            throw Problem.UNAUTHORIZED.toException(
                    "A valid API key is required, in X-Api-Key or Authorization: Bearer.");
        }
        return principal;
    }

    /** Whether this caller may do everything, admin-only endpoints included: an admin key of no one domain. */
    public boolean isAdmin() {
        return scope == ApiScope.ADMIN && domainId == null;
    }

    /** Whether this key is limited to one domain ({@link #domainId}). */
    public boolean isDomainLimited() {
        return domainId != null;
    }

    /** Whether this caller may see and change links of the domain with this id. */
    public boolean mayUse(int domain) {
        return domainId == null || domainId == domain;
    }

    /** Fails with 403 {@code domain-not-allowed} unless this caller may use the domain with this id. */
    public void checkDomain(int domain, String host) {
        if (!mayUse(domain)) {
            throw domainNotAllowed(host);
        }
    }

    /** The 403 a domain-limited key gets for anything outside its domain; {@code host} names what it asked for. */
    public static ProblemException domainNotAllowed(String host) {
        ProblemException problem = Problem.DOMAIN_NOT_ALLOWED.toException(
                host == null
                        ? "This API key is limited to one domain; this needs a key of every domain."
                        : "This API key is limited to one domain, and may not use " + host + ".");
        return host == null ? problem : problem.with("domain", host);
    }

    /** Whether this caller may read a link owned by {@code ownerKeyId}. */
    public boolean canRead(Long ownerKeyId) {
        return scope != ApiScope.CREATE || owns(ownerKeyId);
    }

    /**
     * Whether this caller may change or delete a link owned by {@code ownerKeyId}; the link's domain is checked
     * apart ({@link #mayUse}): an admin key limited to a domain changes any link of it.
     */
    public boolean canChange(Long ownerKeyId) {
        return scope == ApiScope.ADMIN || (scope == ApiScope.CREATE && owns(ownerKeyId));
    }

    private boolean owns(Long ownerKeyId) {
        return keyId != null && keyId.equals(ownerKeyId);
    }

    /**
     * Fails with 403 unless this caller has one of the given scopes and sees every domain: for endpoints that are
     * not about one domain's links (keys, domains, imports, exports, orphan visits). A key limited to one domain
     * gets {@code domain-not-allowed}. Endpoints about one domain's links use {@link #requireOnDomain}.
     */
    public ApiPrincipal require(ApiScope... allowed) {
        requireOnDomain(allowed);
        if (domainId != null) {
            throw domainNotAllowed(null);
        }
        return this;
    }

    /** Fails with 403 unless this caller has one of the given scopes; its domain is checked apart. */
    public ApiPrincipal requireOnDomain(ApiScope... allowed) {
        for (ApiScope scope : allowed) {
            if (this.scope == scope) {
                return this;
            }
        }
        throw Problem.FORBIDDEN.toException("This API key's scope (" + scope.value() + ") does not allow this.");
    }
}
