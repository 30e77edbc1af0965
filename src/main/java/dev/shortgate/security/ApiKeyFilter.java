package dev.shortgate.security;

import dev.shortgate.system.Problem;
import dev.shortgate.system.ProblemException;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Every {@code /api/**} call needs an API key, in {@code X-Api-Key} or {@code Authorization: Bearer}. A missing,
 * unknown or revoked key gets the same 401, with nothing that tells an attacker which it was. The redirect path
 * stays open.
 */
@Component
class ApiKeyFilter implements WebFilter, Ordered {

    static final String API_KEY_HEADER = "X-Api-Key";
    private static final String BEARER = "Bearer ";

    private final ApiKeys keys;
    private final ApiRateLimiter rateLimiter;
    private final ClientIpResolver clientIps;

    ApiKeyFilter(ApiKeys keys, ApiRateLimiter rateLimiter, ClientIpResolver clientIps) {
        this.keys = keys;
        this.rateLimiter = rateLimiter;
        this.clientIps = clientIps;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!isApiPath(exchange.getRequest().getPath())) {
            return chain.filter(exchange);
        }
        String presented = presentedKey(exchange.getRequest().getHeaders());
        if (presented == null) {
            return Mono.error(unauthorized());
        }
        // A client that has presented too many wrong keys gets only what this pod already knows looked at, and a
        // 429 for anything else, so guessing keys costs no database query.
        String client = ClientIpResolver.rateLimitKey(clientIps.resolve(exchange.getRequest()));
        ProblemException overBudget = rateLimiter.checkAuthFailures(client);
        Mono<ApiPrincipal> authenticated = overBudget == null ? keys.authenticate(presented)
                : keys.authenticateKnown(presented);
        return authenticated
                .switchIfEmpty(Mono.defer(() -> {
                    if (overBudget != null) {
                        return Mono.error(overBudget);
                    }
                    rateLimiter.authenticationFailed(client);
                    return Mono.error(unauthorized());
                }))
                .flatMap(principal -> rateLimiter.admit(principal).thenReturn(principal))
                .flatMap(principal -> {
                    exchange.getAttributes().put(ApiPrincipal.ATTRIBUTE, principal);
                    return chain.filter(exchange);
                });
    }

    /**
     * Whether the request is for the API, judged on the first path segment as routing sees it: decoded and
     * without matrix parameters, so {@code /%61pi/...} and {@code /api;x=1/...} cannot slip past.
     */
    static boolean isApiPath(RequestPath path) {
        for (PathContainer.Element element : path.pathWithinApplication().elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                return "api".equals(segment.valueToMatch());
            }
        }
        return false;
    }

    private static String presentedKey(HttpHeaders headers) {
        String key = headers.getFirst(API_KEY_HEADER);
        if (StringUtils.hasText(key)) {
            return key.trim();
        }
        String authorization = headers.getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            String bearer = authorization.substring(BEARER.length()).trim();
            return bearer.isEmpty() ? null : bearer;
        }
        return null;
    }

    private static RuntimeException unauthorized() {
        var problem = Problem.UNAUTHORIZED.toException("A valid API key is required, in X-Api-Key or "
                + "Authorization: Bearer.");
        problem.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"shortgate\"");
        return problem;
    }
}
