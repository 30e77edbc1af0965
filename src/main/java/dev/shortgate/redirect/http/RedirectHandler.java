package dev.shortgate.redirect.http;

import java.util.Base64;
import java.util.Map;

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

    RedirectHandler(Redirects redirects, ClientIpResolver clientIps) {
        this.redirects = redirects;
        this.clientIps = clientIps;
    }

    /**
     * {@code GET /{code}/track}: the pixel, always (200, as Shlink answers it for an unknown code too), after
     * recording a visit of a live link. Not a redirect, so not in {@code shortgate.redirect}.
     */
    Mono<ServerResponse> track(ServerRequest request) {
        HttpHeaders headers = request.headers().asHttpHeaders();
        return redirects
                .track(new Redirects.Request(
                        request.pathVariable("code"),
                        true,
                        request.uri().getRawQuery(),
                        clientIps.resolve(request),
                        headers.getFirst(HttpHeaders.USER_AGENT),
                        headers.getFirst(HttpHeaders.REFERER)))
                .then(ServerResponse.ok().contentType(GIF).bodyValue(PIXEL));
    }

    Mono<ServerResponse> handle(ServerRequest request) {
        HttpHeaders headers = request.headers().asHttpHeaders();
        return redirects
                .answer(new Redirects.Request(
                        request.pathVariable("code"),
                        request.method() == HttpMethod.GET,
                        request.uri().getRawQuery(),
                        clientIps.resolve(request),
                        headers.getFirst(HttpHeaders.USER_AGENT),
                        headers.getFirst(HttpHeaders.REFERER),
                        headers.getFirst(HttpHeaders.ACCEPT_LANGUAGE)))
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
