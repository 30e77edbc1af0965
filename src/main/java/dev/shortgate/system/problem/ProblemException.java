package dev.shortgate.system.problem;

import java.time.Duration;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * A domain error rendered as an RFC 9457 problem detail with a stable {@code type}.
 * Spring's problem-details support writes it; no stack trace ever reaches the body.
 */
public class ProblemException extends ErrorResponseException {

    private final Problem problem;

    public ProblemException(Problem problem, String detail) {
        super(problem.status(), body(problem, detail), null);
        this.problem = problem;
    }

    private static ProblemDetail body(Problem problem, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(problem.status(), detail);
        body.setType(problem.type());
        body.setTitle(problem.title());
        return body;
    }

    public Problem problem() {
        return problem;
    }

    /** Adds an extension member, such as the offending field. */
    public ProblemException with(String name, Object value) {
        getBody().setProperty(name, value);
        return this;
    }

    /** Adds a {@code Retry-After} header, in whole seconds. */
    public ProblemException retryAfter(Duration delay) {
        getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, delay.toSeconds())));
        return this;
    }

    @Override
    public String getMessage() {
        return problem.name() + ": " + getBody().getDetail();
    }
}
