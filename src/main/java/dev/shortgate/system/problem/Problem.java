package dev.shortgate.system.problem;

import java.net.URI;

import org.springframework.http.HttpStatus;

/**
 * Every problem type Shortgate answers with. The {@link #type()} URI is stable: clients may switch on it.
 * Titles are short and fixed; details say what went wrong with this request.
 */
public enum Problem {
    INVALID_REQUEST(HttpStatus.BAD_REQUEST, "Invalid request"),
    INVALID_URL(HttpStatus.BAD_REQUEST, "Invalid URL"),
    URL_SCHEME_NOT_ALLOWED(HttpStatus.BAD_REQUEST, "URL scheme not allowed"),
    URL_USERINFO_NOT_ALLOWED(HttpStatus.BAD_REQUEST, "URL must not carry credentials"),
    URL_TOO_LONG(HttpStatus.BAD_REQUEST, "URL too long"),
    URL_SELF_LINK(HttpStatus.BAD_REQUEST, "URL points at this shortener"),
    URL_HOST_NOT_ALLOWED(HttpStatus.BAD_REQUEST, "URL points at a private or reserved address"),
    URL_SHORTENER_NOT_ALLOWED(HttpStatus.BAD_REQUEST, "URL points at another link shortener"),
    URL_HOST_DENIED(HttpStatus.BAD_REQUEST, "URL host is denied"),
    URL_HOMOGRAPH(HttpStatus.BAD_REQUEST, "URL host imitates another name"),
    INVALID_ALIAS(HttpStatus.BAD_REQUEST, "Invalid alias"),
    INVALID_LENGTH(HttpStatus.BAD_REQUEST, "Invalid code length"),
    INVALID_RULES(HttpStatus.BAD_REQUEST, "Invalid redirect rules"),
    INVALID_DOMAIN(HttpStatus.BAD_REQUEST, "Invalid domain"),
    UNKNOWN_DOMAIN(HttpStatus.BAD_REQUEST, "Unknown domain"),
    UNAUTHORIZED(HttpStatus.UNAUTHORIZED, "Unauthorized"),
    FORBIDDEN(HttpStatus.FORBIDDEN, "Forbidden"),
    DOMAIN_NOT_ALLOWED(HttpStatus.FORBIDDEN, "Domain not allowed for this API key"),
    NOT_FOUND(HttpStatus.NOT_FOUND, "Not found"),
    LINK_NOT_FOUND(HttpStatus.NOT_FOUND, "Link not found"),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),
    API_KEY_NOT_FOUND(HttpStatus.NOT_FOUND, "API key not found"),
    DOMAIN_NOT_FOUND(HttpStatus.NOT_FOUND, "Domain not found"),
    LINK_GONE(HttpStatus.GONE, "Link expired"),
    ALIAS_TAKEN(HttpStatus.CONFLICT, "Alias already taken"),
    DOMAIN_TAKEN(HttpStatus.CONFLICT, "Domain already added"),
    DOMAIN_IN_USE(HttpStatus.CONFLICT, "Domain in use"),
    LINK_CHANGED_CONCURRENTLY(HttpStatus.CONFLICT, "Link changed concurrently"),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "Payload too large"),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type"),
    RATE_LIMITED(HttpStatus.TOO_MANY_REQUESTS, "Too many requests"),
    INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error"),
    SERVICE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Service unavailable"),
    DEADLINE_EXCEEDED(HttpStatus.SERVICE_UNAVAILABLE, "Deadline exceeded"),
    CODE_SPACE_EXHAUSTED(HttpStatus.SERVICE_UNAVAILABLE, "Code space exhausted");

    /** Problem type URIs live under this prefix; the slug is the enum name in kebab case. */
    public static final String TYPE_PREFIX = "https://shortgate.dev/problems/";

    private final HttpStatus status;
    private final String title;
    private final URI type;

    Problem(HttpStatus status, String title) {
        this.status = status;
        this.title = title;
        this.type = URI.create(
                TYPE_PREFIX + name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    public URI type() {
        return type;
    }

    /** A new exception of this type, with a detail for this occurrence. */
    public ProblemException toException(String detail) {
        return new ProblemException(this, detail);
    }
}
