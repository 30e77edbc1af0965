package dev.shortgate.redirect.http;

import java.net.InetAddress;
import java.util.Base64;
import java.util.Map;

import dev.shortgate.domain.Domains;
import dev.shortgate.security.ClientIpResolver;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET|HEAD /{code}} through Spring's dispatcher, for what the {@link FastRedirects fast path} hands on (a
 * request with a body, an encoded path) or everything when it is off: the {@link Redirects} decision, written as a
 * {@link ServerResponse}.
 */
final class RedirectHandler {

    /** Shlink's tracking pixel: a transparent 1x1 GIF, the same bytes as Shlink's {@code PixelResponse}. */
    static final byte[] PIXEL =
            Base64.getDecoder().decode("R0lGODlhAQABAJAAAP8AAAAAACH5BAUQAAAALAAAAAABAAEAAAICBAEAOw==");

    static final MediaType GIF = MediaType.IMAGE_GIF;

    private final Redirects redirects;
    private final ClientIpResolver clientIps;
    private final Domains domains;

    RedirectHandler(Redirects redirects, ClientIpResolver clientIps, Domains domains) {
        this.redirects = redirects;
        this.clientIps = clientIps;
        this.domains = domains;
    }

    static final String FORWARDED_HOST = "X-Forwarded-Host";

    /** The first host of an {@code X-Forwarded-Host} (the one the client asked for), or {@code host} if empty. */
    static String forwardedHost(String forwarded, String host) {
        if (forwarded == null) {
            return host;
        }
        int comma = forwarded.indexOf(',');
        String first = (comma < 0 ? forwarded : forwarded.substring(0, comma)).strip();
        return first.isEmpty() ? host : first;
    }

    /**
     * {@code GET /{code}/track}: the pixel, always (200, as Shlink answers it for an unknown code too), after
     * recording a visit of a live link. Not a redirect, so not in {@code shortgate.redirect}.
     */
    Mono<ServerResponse> track(ServerRequest request) {
        HttpHeaders headers = request.headers().asHttpHeaders();
        String code = request.pathVariable("code");
        return redirects
                .track(new Redirects.Request(
                        code,
                        true,
                        request.uri().getRawQuery(),
                        clientIps.resolve(request),
                        headers.getFirst(HttpHeaders.USER_AGENT),
                        headers.getFirst(HttpHeaders.REFERER),
                        null,
                        key(request, headers, code)))
                .then(ServerResponse.ok().contentType(GIF).bodyValue(PIXEL));
    }

    /**
     * The key the link of {@code code} on the request's domain is stored under: {@code Host}, or the first
     * {@code X-Forwarded-Host} from a trusted proxy, picks the domain. A path that is no code as visitors may type it
     * gets a key too, never looked up (it answers 404), so that its 404 is the domain's (its not-found redirect).
     */
    private String key(ServerRequest request, HttpHeaders headers, String code) {
        if (domains.onlyDefault()) {
            return code;
        }
        String host = headers.getFirst(HttpHeaders.HOST);
        if (headers.containsHeader(FORWARDED_HOST)) {
            InetAddress peer = request.remoteAddress()
                    .map(java.net.InetSocketAddress::getAddress)
                    .orElse(null);
            if (peer != null && clientIps.isTrusted(peer)) {
                host = forwardedHost(headers.getFirst(FORWARDED_HOST), host);
            }
        }
        return domains.redirectKey(host, code);
    }

    Mono<ServerResponse> handle(ServerRequest request) {
        HttpHeaders headers = request.headers().asHttpHeaders();
        String code = request.pathVariable("code");
        String key = key(request, headers, code);
        return redirects
                .answer(new Redirects.Request(
                        code,
                        request.method() == HttpMethod.GET,
                        request.uri().getRawQuery(),
                        clientIps.resolve(request),
                        headers.getFirst(HttpHeaders.USER_AGENT),
                        headers.getFirst(HttpHeaders.REFERER),
                        headers.getFirst(HttpHeaders.ACCEPT_LANGUAGE),
                        key))
                .flatMap(reply -> {
                    ServerResponse.BodyBuilder response =
                            ServerResponse.status(reply.status().code());
                    for (Map.Entry<String, String> header : reply.headers()) {
                        response.header(header.getKey(), header.getValue());
                    }
                    return reply.body() == null ? response.build() : response.bodyValue(reply.body().body);
                });
    }
}
