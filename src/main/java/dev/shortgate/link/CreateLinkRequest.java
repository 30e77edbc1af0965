package dev.shortgate.link;

import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.modulith.NamedInterface;

/**
 * Body of {@code POST /api/v1/links} (and of each batch item).
 *
 * @param url            the URL to shorten (required)
 * @param length         the generated code's length, 1 to 8 (default 7)
 * @param alias          a custom code instead of a generated one
 * @param expiresAt      when the link stops redirecting (410 after), in the future
 * @param maxVisits      how many visits it allows (410 after), positive
 * @param disabled       create it switched off (404 until enabled)
 * @param redirectStatus 301, 302, 307 or 308; none means the domain's default redirect status (302 unless an admin
 *                       set another)
 * @param forwardQuery   append the visitor's query string to the target
 * @param domain         the short domain the link is served on, one added through {@code /api/v1/domains}
 *                       (default: the host of {@code shortgate.base-url})
 * @param tags           labels for the link, each a text of at most 255 characters; trimmed, blanks and repeats left
 *                       out. Stored only when this create makes the link: a link found (find-if-exists) keeps its own
 */
@NamedInterface("service")
public record CreateLinkRequest(
        String url,
        Integer length,
        String alias,
        Instant expiresAt,
        Long maxVisits,
        Boolean disabled,
        Integer redirectStatus,
        Boolean forwardQuery,
        String domain,

        @Schema(
                description = "Labels for the link, each a text of at most 255 characters; trimmed, blanks and"
                        + " repeats left out. Written only when this create makes the link (201): a link"
                        + " found (200) keeps its own.",
                example = "[\"campaign\", \"sms\"]")
        List<String> tags) {

    CreateLinkRequest(String url, Integer length, String alias) {
        this(url, length, alias, null, null, null, null, null, null, null);
    }

    /** A create without tags. */
    public CreateLinkRequest(
            String url,
            Integer length,
            String alias,
            Instant expiresAt,
            Long maxVisits,
            Boolean disabled,
            Integer redirectStatus,
            Boolean forwardQuery,
            String domain) {
        this(url, length, alias, expiresAt, maxVisits, disabled, redirectStatus, forwardQuery, domain, null);
    }

    /** A create on the default domain. */
    public CreateLinkRequest(
            String url,
            Integer length,
            String alias,
            Instant expiresAt,
            Long maxVisits,
            Boolean disabled,
            Integer redirectStatus,
            Boolean forwardQuery) {
        this(url, length, alias, expiresAt, maxVisits, disabled, redirectStatus, forwardQuery, null, null);
    }
}
