package dev.shortgate.security;

import java.util.ArrayList;
import java.util.List;

import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Every {@code /api/**} call but the API's description ({@code /api/v1/openapi.json}), and every call of Shlink's
 * API under {@code /rest/**} but its health check, needs an API key, in {@code X-Api-Key} or {@code Authorization: Bearer}
 * (Shlink's {@code GET short-urls/shorten} also in its {@code apiKey} query parameter). A missing,
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
        if (presented == null && isShlinkShorten(exchange.getRequest())) {
            String query = exchange.getRequest().getQueryParams().getFirst("apiKey");
            presented = StringUtils.hasText(query) ? query.trim() : null;
        }
        if (presented == null) {
            return Mono.error(unauthorized());
        }
        // A client that has presented too many wrong keys gets only what this pod already knows looked at, and a
        // 429 for anything else, so guessing keys costs no database query.
        String client = ClientIpResolver.rateLimitKey(clientIps.resolve(exchange.getRequest()));
        ProblemException overBudget = rateLimiter.checkAuthFailures(client);
        Mono<ApiPrincipal> authenticated =
                overBudget == null ? keys.authenticate(presented) : keys.authenticateKnown(presented);
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
        List<String> segments = null;
        for (PathContainer.Element element : path.pathWithinApplication().elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                String value = segment.valueToMatch();
                if (segments == null) {
                    if (!"api".equals(value) && !"rest".equals(value)) {
                        return false; // most requests: nothing is collected
                    }
                    segments = new ArrayList<>(4);
                }
                segments.add(value);
                if (segments.size() == 4) {
                    break;
                }
            }
        }
        if (segments == null) {
            return false;
        }
        if ("api".equals(segments.get(0))) {
            return !isDescription(segments);
        }
        return "rest".equals(segments.get(0)) && !isShlinkHealth(segments);
    }

    /** The OpenAPI description ({@code /api/v1/openapi.json}) and Swagger UI's configuration beside it are open. */
    private static boolean isDescription(List<String> segments) {
        return segments.size() >= 3
                && "v1".equals(segments.get(1))
                && "openapi.json".equals(segments.get(2))
                && (segments.size() == 3 || segments.size() == 4 && "swagger-config".equals(segments.get(3)));
    }

    /**
     * Shlink's health checks ({@code /rest/health}, {@code /rest/v3/health}) are open, as in Shlink; every other
     * {@code /rest/**} path is Shlink's API and needs a key.
     */
    private static boolean isShlinkHealth(List<String> segments) {
        return segments.size() == 2 && "health".equals(segments.get(1))
                || segments.size() == 3 && segments.get(1).matches("v[0-9]+") && "health".equals(segments.get(2));
    }

    /**
     * Shlink's single-step create ({@code GET /rest/v{n}/short-urls/shorten}), which takes its key in the
     * {@code apiKey} query parameter as well, so a link can be made from a browser's address bar or a script.
     */
    static boolean isShlinkShorten(ServerHttpRequest request) {
        if (!HttpMethod.GET.equals(request.getMethod())) {
            return false;
        }
        List<String> segments = new ArrayList<>(4);
        for (PathContainer.Element element :
                request.getPath().pathWithinApplication().elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                if (segments.size() == 4) {
                    return false;
                }
                segments.add(segment.valueToMatch());
            }
        }
        return segments.size() == 4
                && "rest".equals(segments.get(0))
                && segments.get(1).matches("v[0-9]+")
                && "short-urls".equals(segments.get(2))
                && "shorten".equals(segments.get(3));
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
        var problem = Problem.UNAUTHORIZED.toException(
                "A valid API key is required, in X-Api-Key or " + "Authorization: Bearer.");
        problem.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"shortgate\"");
        return problem;
    }
}
