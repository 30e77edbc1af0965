package dev.shortgate.system;

import java.time.Duration;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.result.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;

/**
 * Renders every API error as an RFC 9457 problem with a stable {@code type}. Spring's own errors
 * (bad JSON, validation, wrong method) arrive with {@code about:blank}; they get one of ours here.
 * {@link ProblemWebExceptionHandler} does the same for errors raised outside controllers.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    @ExceptionHandler
    Mono<ResponseEntity<Object>> handleAny(Exception ex, ServerWebExchange exchange) {
        return handleException(classify(ex, exchange), exchange);
    }

    @Override
    protected Mono<ResponseEntity<Object>> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode status, ServerWebExchange exchange) {
        if (!(ex instanceof ProblemException)) { // e.g. a body-size refusal surfacing while decoding
            ProblemException cause = Causes.find(ex, ProblemException.class).orElse(null);
            if (cause != null) {
                return handleException(cause, exchange);
            }
        }
        JacksonException badField = ex instanceof ProblemException ? null : JsonProblems.fieldError(ex);
        if (badField != null) { // a body field of the wrong type or range: name it
            return handleException(JsonProblems.invalidField(badField), exchange);
        }
        if (isBodyTooLarge(ex) && !(ex instanceof ProblemException)) {
            return handleException(Problem.PAYLOAD_TOO_LARGE.toException(
                    "The request body is larger than this endpoint accepts."), exchange);
        }
        ProblemDetail detail = body instanceof ProblemDetail given ? given
                : ex instanceof ErrorResponse error ? error.getBody() : null;
        if (detail != null) {
            retype(detail, status, ex);
        }
        return super.handleExceptionInternal(ex, detail != null ? detail : body, headers, status, exchange);
    }

    /** Turns an error that is not a Spring {@code ErrorResponse} into one of our problems, logging as it deserves. */
    static ProblemException classify(Throwable ex, ServerWebExchange exchange) {
        Optional<ProblemException> problem = Causes.find(ex, ProblemException.class);
        if (problem.isPresent()) {
            return problem.get();
        }
        if (isBodyTooLarge(ex)) {
            return Problem.PAYLOAD_TOO_LARGE.toException("The request body is larger than this endpoint accepts.");
        }
        if (Failures.isUnavailable(ex)) {
            log.warn("Backend unavailable while serving {} {}: {}", exchange.getRequest().getMethod(),
                    exchange.getRequest().getPath(), ex.toString());
            return Problem.SERVICE_UNAVAILABLE.toException("A backing store is unavailable; retry shortly.")
                    .retryAfter(RETRY_AFTER);
        }
        log.error("Unhandled error serving {} {}", exchange.getRequest().getMethod(),
                exchange.getRequest().getPath(), ex);
        return Problem.INTERNAL_ERROR.toException("An unexpected error occurred.");
    }

    /** Gives a Spring-made problem ({@code about:blank}) our stable type and title for its status. */
    static void retype(ProblemDetail detail, HttpStatusCode status, Throwable ex) {
        if (detail.getType() != null && !"about:blank".equals(detail.getType().toString())) {
            return;
        }
        Problem problem = forStatus(status);
        detail.setType(problem.type());
        detail.setTitle(problem.title());
        if (ex instanceof DecodingException || ex.getCause() instanceof DecodingException
                || (status.value() == 400 && "Failed to read HTTP message".equals(detail.getDetail()))) {
            detail.setDetail("The request body is not valid JSON for this endpoint.");
        } else if (status.value() == 404) {
            detail.setDetail("Nothing is served at this path.");
        }
    }

    static boolean isBodyTooLarge(Throwable ex) {
        return Causes.any(ex, DataBufferLimitException.class);
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
