package dev.shortgate.link;

import java.time.Instant;
import java.util.Objects;

import org.springframework.modulith.NamedInterface;

/**
 * A short link: a code and the URL it redirects to, with the rules it redirects by.
 *
 * @param code           the short code, case-sensitive
 * @param url            the normalised target URL, exactly as stored
 * @param redirectStatus 301, 302, 307 or 308
 * @param alias          whether the code was chosen by the caller rather than generated
 * @param createdAt      when the link was made
 * @param expiresAt      when it stops redirecting (then 410), or {@code null}
 * @param maxVisits      how many visits it allows (then 410), or {@code null}
 * @param disabled       whether it was switched off (then 404)
 * @param forwardQuery   whether the visitor's query string is appended to the target
 * @param apiKeyId       the API key that created it, or {@code null} for the configured admin key
 * @param deletedAt      when it was deleted (a tombstone: its code is never reused), or {@code null}
 * @param rules          its redirect rules and splits ({@link LinkRules}), or {@code null} when it has none: the
 *                       redirect path checks only this for {@code null}
 */
@NamedInterface("model")
public record Link(
        String code,
        String url,
        int redirectStatus,
        boolean alias,
        Instant createdAt,
        Instant expiresAt,
        Long maxVisits,
        boolean disabled,
        boolean forwardQuery,
        Long apiKeyId,
        Instant deletedAt,
        LinkRules rules) {

    public static final int DEFAULT_REDIRECT_STATUS = 302;

    public Link {
        if (rules != null && rules.isEmpty()) {
            rules = null;
        }
    }

    /** A link without rules. */
    public Link(
            String code,
            String url,
            int redirectStatus,
            boolean alias,
            Instant createdAt,
            Instant expiresAt,
            Long maxVisits,
            boolean disabled,
            boolean forwardQuery,
            Long apiKeyId,
            Instant deletedAt) {
        this(
                code,
                url,
                redirectStatus,
                alias,
                createdAt,
                expiresAt,
                maxVisits,
                disabled,
                forwardQuery,
                apiKeyId,
                deletedAt,
                null);
    }

    /** This link with these rules ({@code null} or empty: none). */
    public Link withRules(LinkRules newRules) {
        return with(code, deletedAt, newRules);
    }

    /** The syntax of every code, generated or chosen: the redirect path checks it before any lookup. */
    public static final java.util.regex.Pattern CODE = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /**
     * The syntax of the key a link is stored under ({@code domain.DomainCodes}): a code, on a domain other than the
     * default one preceded by the domain's id and {@code ~}; at most 64 characters. Only the API, which forms keys
     * itself, checks this; the redirect path checks {@link #CODE} on what the visitor typed.
     */
    public static final java.util.regex.Pattern KEY =
            java.util.regex.Pattern.compile("(?=.{1,64}$)(?:[1-9][0-9]{0,8}~)?[A-Za-z0-9_-]+");

    /** This link under another code (a candidate for a generated link). */
    public Link withCode(String newCode) {
        return with(newCode, deletedAt, rules);
    }

    /** This link's tombstone: deleted at {@code when}. */
    public Link tombstone(Instant when) {
        return with(code, when, rules);
    }

    private Link with(String newCode, Instant newDeletedAt, LinkRules newRules) {
        return new Link(
                newCode,
                url,
                redirectStatus,
                alias,
                createdAt,
                expiresAt,
                maxVisits,
                disabled,
                forwardQuery,
                apiKeyId,
                newDeletedAt,
                newRules);
    }

    /** What a redirect should do with this link at a given moment, before counting visits. */
    public enum State {
        ACTIVE,
        DISABLED,
        EXPIRED,
        DELETED
    }

    public State stateAt(Instant now) {
        if (deletedAt != null) {
            return State.DELETED;
        }
        if (disabled) {
            return State.DISABLED;
        }
        if (expiresAt != null && !now.isBefore(expiresAt)) {
            return State.EXPIRED;
        }
        return State.ACTIVE;
    }

    /** Whether this link already is what a create request with these settings would make. */
    public boolean satisfies(Link wanted) {
        return deletedAt == null
                && rules == null
                && !disabled
                && url.equals(wanted.url)
                && alias == wanted.alias
                && redirectStatus == wanted.redirectStatus
                && forwardQuery == wanted.forwardQuery
                && Objects.equals(expiresAt, wanted.expiresAt)
                && Objects.equals(maxVisits, wanted.maxVisits)
                && Objects.equals(apiKeyId, wanted.apiKeyId);
    }
}
