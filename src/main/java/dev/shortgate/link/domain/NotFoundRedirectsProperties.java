package dev.shortgate.link.domain;

import java.net.URI;
import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the traffic port sends what reached no link ({@code shortgate.not-found-redirects.*}), as Shlink's
 * {@code DEFAULT_*_REDIRECT} settings: the defaults, used while the default domain has none of its own stored
 * (set through Shlink's {@code PATCH /rest/v3/domains/redirects}). Unset means a 404.
 *
 * @param baseUrl         where {@code GET /} goes
 * @param regular404      where any other path that nothing serves goes
 * @param invalidShortUrl where an unknown, disabled or deleted short code goes
 * @param refresh         how often each pod reads the stored redirects again, so a change made through another
 *                        pod applies here within this time (a change through this pod applies at once)
 */
@ConfigurationProperties("shortgate.not-found-redirects")
@Validated
public record NotFoundRedirectsProperties(
        URI baseUrl,
        URI regular404,
        URI invalidShortUrl,
        @NotNull @DefaultValue("5s") Duration refresh) {

    public NotFoundRedirectsProperties {
        check("base-url", baseUrl);
        check("regular404", regular404);
        check("invalid-short-url", invalidShortUrl);
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("shortgate.not-found-redirects.refresh must be positive");
        }
    }

    private static void check(String name, URI uri) {
        if (uri != null && !DomainRedirects.isRedirectTarget(uri.toString())) {
            throw new IllegalArgumentException(
                    "shortgate.not-found-redirects." + name + " must be an absolute http(s) URL, got " + uri);
        }
    }
}
