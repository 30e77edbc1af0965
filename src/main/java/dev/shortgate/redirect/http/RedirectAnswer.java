package dev.shortgate.redirect.http;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.rules.RuleEngine;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import io.netty.util.AsciiString;

/**
 * How a redirect to one link is answered, worked out once per cached link: its status and its response headers
 * ({@code Location}, {@code Cache-Control}, {@code Referrer-Policy}), ready to encode.
 */
public final class RedirectAnswer {

    static final String NO_CACHE = "private, max-age=0";
    private static final String REFERRER_POLICY = "strict-origin-when-cross-origin";
    private static final AsciiString REFERRER_POLICY_NAME = AsciiString.cached("referrer-policy");
    private static final AsciiString ZERO = AsciiString.cached("0");

    final Link link;
    final HttpResponseStatus status;
    private final String cacheControl;
    /** Location, Cache-Control, Referrer-Policy and a zero Content-Length, for a request whose query is not forwarded. */
    final HttpHeaders headers;
    /** Whether the link redirects at any time, with no expiry or cap to check first. */
    final boolean alwaysActive;
    /** The link's redirect rules, compiled; {@code null} when it has none (the only check such a link pays). */
    final RuleEngine.Compiled rules;
    /** The headers of each target the rules can answer with, built once like {@link #headers}; {@code null} without rules. */
    private final java.util.Map<String, HttpHeaders> targetHeaders;

    private RedirectAnswer(Link link, String permanentCacheControl, RuleEngine engine) {
        this.link = link;
        this.rules = engine == null ? null : engine.compile(link);
        int code = link.redirectStatus();
        this.status = HttpResponseStatus.valueOf(code);
        // A permanent redirect may be cached by browsers and CDNs, but not past the link's own end.
        // A link with rules answers differently per visitor: no shared cache may keep one answer.
        boolean permanent =
                (code == 301 || code == 308) && link.expiresAt() == null && link.maxVisits() == null && rules == null;
        this.cacheControl = permanent ? permanentCacheControl : NO_CACHE;
        this.headers = headers(link.url());
        if (rules == null) {
            this.targetHeaders = null;
        } else {
            java.util.Map<String, HttpHeaders> byTarget = new java.util.HashMap<>();
            for (String target : rules.targets()) {
                byTarget.put(target, headers(target));
            }
            this.targetHeaders = java.util.Map.copyOf(byTarget);
        }
        this.alwaysActive =
                link.deletedAt() == null && !link.disabled() && link.expiresAt() == null && link.maxVisits() == null;
    }

    /** The target for a request with this raw query string (or {@code null}): the link's, or with the query forwarded. */
    String location(String rawQuery) {
        return location(link.url(), rawQuery);
    }

    /** {@code target} (the link's URL or a rule's), with the query forwarded when the link forwards it. */
    String location(String target, String rawQuery) {
        return link.forwardQuery() ? QueryForwarding.merge(target, rawQuery) : target;
    }

    /** The headers of a redirect to a rule's target, with this raw query string (or {@code null}). */
    HttpHeaders headersFor(String target, String rawQuery) {
        HttpHeaders prepared = variesWith(rawQuery) ? null : targetHeaders.get(target);
        return prepared != null ? prepared : headers(location(target, rawQuery));
    }

    /** Whether the response headers depend on the request (the query is forwarded and there is one). */
    boolean variesWith(String rawQuery) {
        return link.forwardQuery() && rawQuery != null && !rawQuery.isEmpty();
    }

    /**
     * Response headers for this location. An explicit zero length: without it a HEAD answer goes out with no
     * length, and a keep-alive client waits on that connection for a body that never comes.
     */
    HttpHeaders headers(String location) {
        return new ReadOnlyHttpHeaders(
                true,
                HttpHeaderNames.LOCATION,
                AsciiString.of(location),
                HttpHeaderNames.CACHE_CONTROL,
                AsciiString.of(cacheControl),
                REFERRER_POLICY_NAME,
                AsciiString.cached(REFERRER_POLICY),
                HttpHeaderNames.CONTENT_LENGTH,
                ZERO);
    }

    /** Makes answers with the configured cache lifetime of permanent redirects. */
    public static final class Factory {

        private final String permanentCacheControl;
        private final RuleEngine engine;

        /** Answers that ignore redirect rules (tests of the paths that do not need them). */
        Factory(RedirectProperties properties) {
            this(properties, null);
        }

        Factory(RedirectProperties properties, RuleEngine engine) {
            this.permanentCacheControl =
                    "public, max-age=" + properties.permanentMaxAge().toSeconds();
            this.engine = engine;
        }

        public RedirectAnswer of(Link link) {
            return new RedirectAnswer(link, permanentCacheControl, engine);
        }
    }
}
