package dev.shortgate.security;

import dev.shortgate.system.problem.Problem;
import org.springframework.modulith.NamedInterface;
import org.springframework.web.server.ServerWebExchange;

/**
 * The caller of an API request, as its key identifies it.
 *
 * @param keyId the key's id, or {@code null} for the admin key configured with {@code SHORTGATE_ADMIN_KEY}
 * @param name  the key's name, for logs and listings (never the key itself)
 * @param scope what the key may do
 */
@NamedInterface("principal")
public record ApiPrincipal(Long keyId, String name, ApiScope scope) {

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

    public boolean isAdmin() {
        return scope == ApiScope.ADMIN;
    }

    /** Whether this caller may read a link owned by {@code ownerKeyId}. */
    public boolean canRead(Long ownerKeyId) {
        return scope != ApiScope.CREATE || owns(ownerKeyId);
    }

    /** Whether this caller may change or delete a link owned by {@code ownerKeyId}. */
    public boolean canChange(Long ownerKeyId) {
        return isAdmin() || (scope == ApiScope.CREATE && owns(ownerKeyId));
    }

    private boolean owns(Long ownerKeyId) {
        return keyId != null && keyId.equals(ownerKeyId);
    }

    /** Fails with 403 unless this caller has one of the given scopes. */
    public ApiPrincipal require(ApiScope... allowed) {
        for (ApiScope scope : allowed) {
            if (this.scope == scope) {
                return this;
            }
        }
        throw Problem.FORBIDDEN.toException("This API key's scope (" + scope.value() + ") does not allow this.");
    }
}
