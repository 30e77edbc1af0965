package dev.shortgate.redirect.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

import dev.shortgate.domain.Domains;
import dev.shortgate.link.domain.DomainRedirects;
import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.intake.VisitRecorder;
import org.reactivestreams.Publisher;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Records the traffic port's other 404s as orphan visits, as Shlink does: {@code GET /} ({@code base_url}) and any
 * other {@code GET} that no handler took and was answered 404 ({@code regular_404}), outside the APIs ({@code /api},
 * {@code /rest}) and off the management port. Unknown codes ({@code GET /{code}}, one segment) are recorded by
 * {@link Redirects} on both redirect paths; this filter does not look at them, and never at a request a handler took.
 * Whether the answer is a 404 is known only when it is committed, whoever renders it (the no-handler error goes to the
 * controller advice, or to the problem renderer). When the request's domain (picked by its host, as for a redirect)
 * has a base URL or regular-404 redirect ({@link DomainRedirects}, read from memory), such a 404 becomes a 302 to
 * it, for GET and HEAD, as in Shlink.
 */
final class NotFoundVisits implements WebFilter, Ordered {

    private static final HttpStatusCode NOT_FOUND = HttpStatusCode.valueOf(404);

    private final FastRedirects traffic;
    private final VisitRecorder visits;
    private final ClientIpResolver clientIps;
    private final DomainRedirects redirects;
    private final Domains domains;

    NotFoundVisits(
            FastRedirects traffic,
            VisitRecorder visits,
            ClientIpResolver clientIps,
            DomainRedirects redirects,
            Domains domains) {
        this.traffic = traffic;
        this.visits = visits;
        this.clientIps = clientIps;
        this.redirects = redirects;
        this.domains = domains;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 20;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        boolean get = HttpMethod.GET.equals(request.getMethod());
        if (!get && !HttpMethod.HEAD.equals(request.getMethod())) {
            return chain.filter(exchange);
        }
        OrphanVisitType type = type(request);
        if (type == null || !traffic.serves(request.getLocalAddress())) {
            return chain.filter(exchange);
        }
        int domainId = domainId(request);
        DomainRedirects.Redirects now = redirects.effective(domainId);
        String target = type == OrphanVisitType.BASE_URL ? now.baseUrl() : now.regular404();
        ServerHttpResponse response = exchange.getResponse();
        response.beforeCommit(() -> {
            if (unhandled404(exchange, response)) {
                if (get) {
                    String path = request.getPath().value();
                    HttpHeaders headers = request.getHeaders();
                    visits.recordOrphan(
                            type,
                            domainId,
                            path.isEmpty() ? "" : path.substring(1),
                            request.getURI().getRawQuery(),
                            clientIps.resolve(request),
                            headers.getFirst(HttpHeaders.USER_AGENT),
                            headers.getFirst(HttpHeaders.REFERER));
                }
                if (target != null) {
                    redirect(response, target);
                }
            }
            return Mono.empty();
        });
        if (target == null) {
            return chain.filter(exchange);
        }
        // The domain's redirect replaces the 404's body: the status and headers change on commit (above), and the
        // body the 404 would have had is dropped here.
        ServerHttpResponseDecorator redirecting = new ServerHttpResponseDecorator(response) {
            @Override
            public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
                return unhandled404(exchange, getDelegate())
                        ? Flux.from(body)
                                .doOnNext(DataBufferUtils::release)
                                .then(getDelegate().setComplete())
                        : super.writeWith(body);
            }

            @Override
            public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
                return unhandled404(exchange, getDelegate())
                        ? Flux.from(body)
                                .concatMap(Flux::from)
                                .doOnNext(DataBufferUtils::release)
                                .then(getDelegate().setComplete())
                        : super.writeAndFlushWith(body);
            }
        };
        return chain.filter(exchange.mutate().response(redirecting).build());
    }

    /**
     * The id of the domain the request's host picks, as the redirect route picks it: {@code Host}, or the first
     * {@code X-Forwarded-Host} from a trusted proxy. Reads no header while the default domain is the only one.
     */
    private int domainId(ServerHttpRequest request) {
        if (domains.onlyDefault()) {
            return Domains.DEFAULT_ID;
        }
        HttpHeaders headers = request.getHeaders();
        String host = headers.getFirst(HttpHeaders.HOST);
        String forwarded = headers.getFirst(RedirectHandler.FORWARDED_HOST);
        if (forwarded != null) {
            InetSocketAddress remote = request.getRemoteAddress();
            InetAddress peer = remote == null ? null : remote.getAddress();
            if (peer != null && clientIps.isTrusted(peer)) {
                host = RedirectHandler.forwardedHost(forwarded, host);
            }
        }
        return domains.redirectDomainId(host);
    }

    /** A 404 that no handler gave (so nothing was found for the path), as opposed to a handler's own 404. */
    private static boolean unhandled404(ServerWebExchange exchange, ServerHttpResponse response) {
        return NOT_FOUND.equals(response.getStatusCode())
                && exchange.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) == null;
    }

    private static void redirect(ServerHttpResponse response, String target) {
        response.setStatusCode(HttpStatus.FOUND);
        HttpHeaders headers = response.getHeaders();
        headers.clear();
        headers.set(HttpHeaders.LOCATION, target);
        headers.set(HttpHeaders.CACHE_CONTROL, "private, max-age=0");
        headers.setContentLength(0);
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
