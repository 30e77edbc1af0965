package dev.shortgate.redirect.http;

import java.util.List;

import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.intake.VisitRecorder;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Records the traffic port's other 404s as orphan visits, as Shlink does: {@code GET /} ({@code base_url}) and any
 * other {@code GET} that no handler took and was answered 404 ({@code regular_404}), outside the APIs ({@code /api},
 * {@code /rest}) and off the management port. Unknown codes ({@code GET /{code}}, one segment) are recorded by
 * {@link Redirects} on both redirect paths; this filter does not look at them, and never at a request a handler took.
 * Whether the answer is a 404 is known only when it is committed, whoever renders it (the no-handler error goes to the
 * controller advice, or to the problem renderer).
 */
final class NotFoundVisits implements WebFilter, Ordered {

    private static final HttpStatusCode NOT_FOUND = HttpStatusCode.valueOf(404);

    private final FastRedirects traffic;
    private final VisitRecorder visits;
    private final ClientIpResolver clientIps;

    NotFoundVisits(FastRedirects traffic, VisitRecorder visits, ClientIpResolver clientIps) {
        this.traffic = traffic;
        this.visits = visits;
        this.clientIps = clientIps;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 20;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        if (!HttpMethod.GET.equals(request.getMethod())) {
            return chain.filter(exchange);
        }
        OrphanVisitType type = type(request);
        if (type == null || !traffic.serves(request.getLocalAddress())) {
            return chain.filter(exchange);
        }
        exchange.getResponse().beforeCommit(() -> {
            if (NOT_FOUND.equals(exchange.getResponse().getStatusCode())
                    && exchange.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) == null) {
                String path = request.getPath().value();
                HttpHeaders headers = request.getHeaders();
                visits.recordOrphan(
                        type,
                        path.isEmpty() ? "" : path.substring(1),
                        request.getURI().getRawQuery(),
                        clientIps.resolve(request),
                        headers.getFirst(HttpHeaders.USER_AGENT),
                        headers.getFirst(HttpHeaders.REFERER));
            }
            return Mono.empty();
        });
        return chain.filter(exchange);
    }

    /**
     * {@code base_url} for {@code /}; {@code null} for {@code /{code}} (the redirect route's) and under the APIs;
     * else {@code regular_404}.
     */
    static OrphanVisitType type(ServerHttpRequest request) {
        List<PathContainer.Element> elements =
                request.getPath().pathWithinApplication().elements();
        int size = elements.size();
        if (size <= 1) {
            return OrphanVisitType.BASE_URL; // "" or "/"
        }
        if (size == 2 && elements.get(1) instanceof PathContainer.PathSegment) {
            return null; // "/{code}": the redirect route answers it, and Redirects records an unknown code
        }
        if (elements.get(1) instanceof PathContainer.PathSegment first
                && ("api".equals(first.valueToMatch()) || "rest".equals(first.valueToMatch()))) {
            return null;
        }
        return OrphanVisitType.REGULAR_404;
    }
}
