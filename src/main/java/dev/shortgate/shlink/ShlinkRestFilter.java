package dev.shortgate.shlink;

import java.util.List;

import dev.shortgate.system.problem.ProblemException;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * What every {@code /rest/**} request goes through before the API key is checked: CORS for browser clients such as
 * shlink-web-client (a preflight is answered here, 204, without a key), and Shlink's error types for what the
 * filters after it refuse (a missing or wrong key is Shlink's {@code invalid-api-key}).
 */
@Component
class ShlinkRestFilter implements WebFilter, Ordered {

    static final String ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
    static final String DEFAULT_ALLOWED_HEADERS = "Content-Type, X-Api-Key, Authorization, Accept";

    private final ShlinkProperties properties;

    ShlinkRestFilter(ShlinkProperties properties) {
        this.properties = properties;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 5; // before ApiKeyFilter, so a preflight needs no key
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        if (!isRestPath(request)) {
            return chain.filter(exchange);
        }
        ServerHttpResponse response = exchange.getResponse();
        HttpHeaders requestHeaders = request.getHeaders();
        String origin = requestHeaders.getOrigin();
        String allowed = properties.corsEnabled() ? properties.allowedOrigin(origin) : null;
        if (HttpMethod.OPTIONS.equals(request.getMethod())
                && requestHeaders.getFirst(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD) != null) {
            HttpHeaders headers = response.getHeaders();
            headers.add(HttpHeaders.VARY, HttpHeaders.ORIGIN);
            if (allowed != null) {
                headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, allowed);
                headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS);
                List<String> asked = requestHeaders.getAccessControlRequestHeaders();
                headers.set(
                        HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS,
                        asked == null || asked.isEmpty() ? DEFAULT_ALLOWED_HEADERS : String.join(", ", asked));
                headers.set(
                        HttpHeaders.ACCESS_CONTROL_MAX_AGE,
                        Long.toString(properties.corsMaxAge().toSeconds()));
            }
            response.setStatusCode(allowed != null ? HttpStatus.NO_CONTENT : HttpStatus.FORBIDDEN);
            return response.setComplete();
        }
        if (allowed != null) {
            response.beforeCommit(() -> {
                HttpHeaders headers = response.getHeaders();
                headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, allowed);
                headers.add(HttpHeaders.VARY, HttpHeaders.ORIGIN);
                return Mono.empty();
            });
        }
        return chain.filter(exchange).onErrorMap(ProblemException.class, ShlinkErrors::translate);
    }

    static boolean isRestPath(ServerHttpRequest request) {
        for (PathContainer.Element element :
                request.getPath().pathWithinApplication().elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                return "rest".equals(segment.valueToMatch());
            }
        }
        return false;
    }
}
