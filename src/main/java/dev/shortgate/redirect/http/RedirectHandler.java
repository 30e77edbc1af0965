package dev.shortgate.redirect.http;

import java.util.Map;

import dev.shortgate.security.ClientIpResolver;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET|HEAD /{code}} through Spring's dispatcher, for what the {@link FastRedirects fast path} hands on (a
 * request with a body, an encoded path) or everything when it is off: the {@link Redirects} decision, written as a
 * {@link ServerResponse}.
 */
final class RedirectHandler {

    private final Redirects redirects;
    private final ClientIpResolver clientIps;

    RedirectHandler(Redirects redirects, ClientIpResolver clientIps) {
        this.redirects = redirects;
        this.clientIps = clientIps;
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
