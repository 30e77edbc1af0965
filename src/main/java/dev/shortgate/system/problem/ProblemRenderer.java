package dev.shortgate.system.problem;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one place that renders errors: every error on the traffic and API paths, from a controller, a filter or
 * Spring itself, becomes an RFC 9457 problem ({@link ProblemDetail}) with a stable {@code type} here. Controllers
 * and filters raise a {@link ProblemException} (or let any error propagate); Spring's own errors (bad JSON, wrong
 * method, unknown path) arrive with {@code about:blank} and get one of our types. The redirect path, which answers
 * below Spring, takes its pre-built bodies from {@link #compactBody(Problem)}. It runs before Spring Boot's default
 * error handler.
 */
@Component
@Order(-2)
public class ProblemRenderer implements WebExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemRenderer.class);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private final JsonMapper json;

    ProblemRenderer(JsonMapper json) {
        this.json = json;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.error(ex);
        }
        ErrorResponse error = toProblem(ex, exchange);
        ProblemDetail body = error.updateAndGetBody(null, Locale.ROOT);
        retype(body, error.getStatusCode(), ex);
        if (body.getInstance() == null) {
            body.setInstance(URI.create(exchange.getRequest().getPath().value()));
        }
        byte[] bytes = json.writeValueAsBytes(body);
        response.setStatusCode(error.getStatusCode());
        HttpHeaders headers = response.getHeaders();
        error.getHeaders().forEach(headers::put);
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        headers.setContentLength(bytes.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
    }

    /**
     * The problem an error answers: a {@link ProblemException} anywhere in its causes; a body field that does not
     * bind, named; a body over the limit; Spring's own {@link ErrorResponse}; a backend that is down (503 with
     * {@code Retry-After}); anything else a 500, logged with its stack trace.
     */
    static ErrorResponse toProblem(Throwable ex, ServerWebExchange exchange) {
        ProblemException raised = Causes.find(ex, ProblemException.class).orElse(null);
        if (raised != null) {
            return raised;
        }
        JacksonException badField = JsonProblems.fieldError(ex);
        if (badField != null) {
            return JsonProblems.invalidField(badField);
        }
        if (Causes.any(ex, DataBufferLimitException.class)) {
            return Problem.PAYLOAD_TOO_LARGE.toException("The request body is larger than this endpoint accepts.");
        }
        if (ex instanceof ErrorResponse known) {
            return known;
        }
        if (Failures.isUnavailable(ex)) {
            log.warn(
                    "Backend unavailable while serving {} {}: {}",
                    exchange.getRequest().getMethod(),
                    exchange.getRequest().getPath(),
                    ex.toString());
            return Problem.SERVICE_UNAVAILABLE
                    .toException("A backing store is unavailable; retry shortly.")
                    .retryAfter(RETRY_AFTER);
        }
        log.error(
                "Unhandled error serving {} {}",
                exchange.getRequest().getMethod(),
                exchange.getRequest().getPath(),
                ex);
        return Problem.INTERNAL_ERROR.toException("An unexpected error occurred.");
    }

    /** Gives a Spring-made problem ({@code about:blank}) our stable type and title for its status. */
    private static void retype(ProblemDetail detail, HttpStatusCode status, Throwable ex) {
        if (detail.getType() != null && !"about:blank".equals(detail.getType().toString())) {
            return;
        }
        Problem problem = forStatus(status);
        detail.setType(problem.type());
        detail.setTitle(problem.title());
        if (Causes.any(ex, DecodingException.class)
                || (status.value() == 400 && "Failed to read HTTP message".equals(detail.getDetail()))) {
            detail.setDetail("The request body is not valid JSON for this endpoint.");
        } else if (status.value() == 404) {
            detail.setDetail("Nothing is served at this path.");
        }
    }

    /**
     * The smallest body of a problem, only its stable fields ({@code type}, {@code title}, {@code status}): what the
     * redirect path answers with, built once per problem; a redirect is no place for details.
     */
    public static byte[] compactBody(Problem problem) {
        return ("{\"type\":\"" + problem.type() + "\",\"title\":\"" + problem.title() + "\",\"status\":"
                        + problem.status().value() + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static Problem forStatus(HttpStatusCode status) {
        HttpStatus known = HttpStatus.resolve(status.value());
        if (known == null) {
            return status.is5xxServerError() ? Problem.INTERNAL_ERROR : Problem.INVALID_REQUEST;
        }
        return switch (known) {
            case UNAUTHORIZED -> Problem.UNAUTHORIZED;
            case FORBIDDEN -> Problem.FORBIDDEN;
            case GONE -> Problem.LINK_GONE;
            case TOO_MANY_REQUESTS -> Problem.RATE_LIMITED;
            case NOT_FOUND -> Problem.NOT_FOUND;
            case METHOD_NOT_ALLOWED -> Problem.METHOD_NOT_ALLOWED;
            case NOT_ACCEPTABLE -> Problem.NOT_ACCEPTABLE;
            case UNSUPPORTED_MEDIA_TYPE -> Problem.UNSUPPORTED_MEDIA_TYPE;
            case CONTENT_TOO_LARGE -> Problem.PAYLOAD_TOO_LARGE;
            case SERVICE_UNAVAILABLE -> Problem.SERVICE_UNAVAILABLE;
            default -> status.is5xxServerError() ? Problem.INTERNAL_ERROR : Problem.INVALID_REQUEST;
        };
    }
}
