package dev.shortgate.security;

import dev.shortgate.system.problem.Problem;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Refuses API request bodies over the configured size with 413: at once when {@code Content-Length} says so,
 * and while reading when a chunked body grows past it. Nothing is decoded or written for a refused body.
 */
@Component
class BodySizeLimitFilter implements WebFilter, Ordered {

    private final long maxBodySize;
    private final long maxBatchBodySize;
    private final long maxImportBodySize;

    BodySizeLimitFilter(SecurityProperties properties) {
        this.maxBodySize = properties.maxBodySize();
        this.maxBatchBodySize = properties.maxBatchBodySize();
        this.maxImportBodySize = properties.maxImportBodySize();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 20;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String path = request.getPath().value();
        if (!ApiKeyFilter.isApiPath(request.getPath()) || HttpMethod.GET.equals(request.getMethod())) {
            return chain.filter(exchange);
        }
        long limit = path.equals("/api/v1/links/batch")
                ? maxBatchBodySize
                : path.equals("/api/v1/imports") ? maxImportBodySize : maxBodySize;
        long declared = request.getHeaders().getContentLength();
        if (declared > limit) {
            return Mono.error(tooLarge(limit));
        }
        ServerHttpRequest limited = new ServerHttpRequestDecorator(request) {
            @Override
            public Flux<DataBuffer> getBody() {
                long[] seen = {0};
                return super.getBody().handle((buffer, sink) -> {
                    seen[0] += buffer.readableByteCount();
                    if (seen[0] > limit) {
                        org.springframework.core.io.buffer.DataBufferUtils.release(buffer);
                        sink.error(tooLarge(limit));
                    } else {
                        sink.next(buffer);
                    }
                });
            }
        };
        return chain.filter(exchange.mutate().request(limited).build());
    }

    private static RuntimeException tooLarge(long limit) {
        return Problem.PAYLOAD_TOO_LARGE.toException(
                "The request body is larger than the " + limit + " bytes this endpoint accepts.");
    }
}
