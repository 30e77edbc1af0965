package dev.shortgate.shlink;

import java.net.URI;
import java.util.List;
import java.util.Map;

import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * Shlink's error types ({@code https://shlink.io/api/error/<slug>}) with Shlink's titles and extra fields, so
 * Shlink's clients recognise them. Shortgate's own problems raised under {@code /rest/**} are translated here;
 * those Shlink has no type for keep Shortgate's type.
 */
final class ShlinkErrors {

    static final String TYPE_PREFIX = "https://shlink.io/api/error/";

    /** Shortgate's request fields, as Shlink names them in {@code invalidElements}. */
    private static final Map<String, String> FIELDS =
            Map.of("url", "longUrl", "alias", "customSlug", "length", "shortCodeLength", "expiresAt", "validUntil");

    private ShlinkErrors() {}

    static ErrorResponseException invalidData(List<String> invalidElements) {
        ProblemDetail body = body(HttpStatus.BAD_REQUEST, "invalid-data", "Invalid data", "Provided data is not valid");
        body.setProperty("invalidElements", invalidElements);
        return new ErrorResponseException(HttpStatus.BAD_REQUEST, body, null);
    }

    static ErrorResponseException invalidData(String element, String detail) {
        ErrorResponseException e = invalidData(List.of(element));
        e.getBody().setDetail(detail);
        return e;
    }

    static ErrorResponseException shortUrlNotFound(String code) {
        return error(
                HttpStatus.NOT_FOUND,
                "short-url-not-found",
                "Short URL not found",
                "No URL found with short code \"" + code + "\"",
                "shortCode",
                code);
    }

    /** Shlink's 404 for a code on a domain other than the default: the detail and body name the domain too. */
    static ErrorResponseException shortUrlNotFound(String code, String domain) {
        if (domain == null) {
            return shortUrlNotFound(code);
        }
        return error(
                HttpStatus.NOT_FOUND,
                "short-url-not-found",
                "Short URL not found",
                "No URL found with short code \"" + code + "\" for domain \"" + domain + "\"",
                "shortCode",
                code,
                "domain",
                domain);
    }

    static ErrorResponseException nonUniqueSlug(String slug) {
        return error(
                HttpStatus.BAD_REQUEST,
                "non-unique-slug",
                "Invalid custom slug",
                "Provided slug \"" + slug + "\" is already in use.",
                "customSlug",
                slug);
    }

    static ErrorResponseException tagNotFound(String tag) {
        return error(
                HttpStatus.NOT_FOUND,
                "tag-not-found",
                "Tag not found",
                "Tag with name \"" + tag + "\" could not be found",
                "tag",
                tag);
    }

    static ErrorResponseException tagConflict(String oldName, String newName) {
        return error(
                HttpStatus.CONFLICT,
                "tag-conflict",
                "Tag conflict",
                "You cannot rename tag " + oldName + " to " + newName + ", because it already exists",
                "oldName",
                oldName,
                "newName",
                newName);
    }

    static ErrorResponseException domainNotFound(String authority) {
        return error(
                HttpStatus.NOT_FOUND,
                "domain-not-found",
                "Domain not found",
                "Domain with authority \"" + authority + "\" could not be found",
                "authority",
                authority);
    }

    static ErrorResponseException forbiddenTagOperation(String detail) {
        return error(HttpStatus.FORBIDDEN, "forbidden-tag-operation", "Forbidden tag operation", detail);
    }

    static ErrorResponseException mercureNotConfigured() {
        return error(
                HttpStatus.NOT_IMPLEMENTED,
                "mercure-not-configured",
                "Mercure integration not configured",
                "This Shlink instance is not integrated with a mercure hub.");
    }

    /** One of Shlink's errors, with its extra fields given as name, value pairs. */
    private static ErrorResponseException error(
            HttpStatus status, String slug, String title, String detail, Object... fields) {
        ProblemDetail body = body(status, slug, title, detail);
        for (int i = 0; i < fields.length; i += 2) {
            body.setProperty((String) fields[i], fields[i + 1]);
        }
        return new ErrorResponseException(status, body, null);
    }

    /**
     * As {@link #translate(ProblemException)}, for a request that named {@code shortCode} on {@code domain} (as the
     * request gave it; {@code null} when it gave none): a missing link is Shlink's 404 for that code and domain.
     */
    static ErrorResponseException translate(ProblemException e, String shortCode, String domain) {
        return e.problem() == Problem.LINK_NOT_FOUND
                ? shortUrlNotFound(shortCode, domain == null || domain.isBlank() ? null : domain)
                : translate(e);
    }

    /** Shortgate's problem as Shlink would have answered it. */
    static ErrorResponseException translate(ProblemException e) {
        Problem problem = e.problem();
        Map<String, Object> properties = e.getBody().getProperties();
        Object field = properties == null ? null : properties.get("field");
        ErrorResponseException translated =
                switch (problem) {
                    case UNAUTHORIZED ->
                        error(
                                HttpStatus.UNAUTHORIZED,
                                "invalid-api-key",
                                "Invalid API key",
                                "Provided API key does not exist or is invalid.");
                    case FORBIDDEN ->
                        error(
                                HttpStatus.FORBIDDEN,
                                "forbidden-operation",
                                "Forbidden operation",
                                e.getBody().getDetail());
                    case LINK_NOT_FOUND ->
                        shortUrlNotFound(String.valueOf(properties == null ? "" : properties.get("code")));
                    case ALIAS_TAKEN -> nonUniqueSlug(aliasOf(e.getBody().getDetail()));
                    case INVALID_REQUEST,
                            INVALID_URL,
                            URL_SCHEME_NOT_ALLOWED,
                            URL_USERINFO_NOT_ALLOWED,
                            URL_TOO_LONG,
                            URL_SELF_LINK,
                            URL_HOST_NOT_ALLOWED,
                            URL_SHORTENER_NOT_ALLOWED,
                            URL_HOST_DENIED,
                            URL_HOMOGRAPH,
                            INVALID_ALIAS,
                            INVALID_LENGTH,
                            INVALID_RULES -> {
                        String element = field != null && field.toString().startsWith("rules")
                                ? "redirectRules"
                                : field == null
                                        ? (problem.name().startsWith("URL") || problem == Problem.INVALID_URL
                                                ? "longUrl"
                                                : null)
                                        : FIELDS.getOrDefault(field.toString(), field.toString());
                        ErrorResponseException invalid = invalidData(element == null ? List.of() : List.of(element));
                        invalid.getBody().setDetail(e.getBody().getDetail());
                        yield invalid;
                    }
                    default -> e;
                };
        if (translated != e) {
            HttpHeaders headers = e.getHeaders();
            headers.forEach((name, values) -> {
                if (!HttpHeaders.WWW_AUTHENTICATE.equalsIgnoreCase(name)) {
                    translated.getHeaders().put(name, values);
                }
            });
        }
        return translated;
    }

    private static String aliasOf(String detail) {
        int start = detail == null ? -1 : detail.indexOf('\'');
        int end = start < 0 ? -1 : detail.indexOf('\'', start + 1);
        return end > start ? detail.substring(start + 1, end) : "";
    }

    private static ProblemDetail body(HttpStatus status, String slug, String title, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(TYPE_PREFIX + slug));
        body.setTitle(title);
        return body;
    }
}
