package dev.shortgate.system;

import java.util.Locale;

import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Problem details for errors that no controller handled: unknown paths, wrong methods, filters. It runs before
 * Spring Boot's default error handler, so every error body on the traffic port is a problem with our types.
 */
@Component
@Order(-2)
class ProblemWebExceptionHandler implements WebExceptionHandler {

    private final JsonMapper json;

    ProblemWebExceptionHandler(JsonMapper json) {
        this.json = json;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.error(ex);
        }
        ErrorResponse error = ex instanceof ErrorResponse known ? known : ApiExceptionHandler.classify(ex, exchange);
        ProblemDetail body = error.updateAndGetBody(null, Locale.ROOT);
        ApiExceptionHandler.retype(body, error.getStatusCode(), ex);
        if (body.getInstance() == null) {
            body.setInstance(java.net.URI.create(exchange.getRequest().getPath().value()));
        }
        byte[] bytes = json.writeValueAsBytes(body);
        response.setStatusCode(error.getStatusCode());
        HttpHeaders headers = response.getHeaders();
        error.getHeaders().forEach((name, values) -> headers.put(name, values));
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        headers.setContentLength(bytes.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
    }
}
