package dev.shortgate.system.settings;

import java.net.URI;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings shared by every feature.
 *
 * @param baseUrl the public origin short links are served from ({@code SHORTGATE_BASE_URL}, for example
 *                {@code https://sho.rt}). It builds {@code shortUrl} in API answers and marks URLs on our
 *                own host as self-links.
 */
@ConfigurationProperties("shortgate")
@Validated
public record ShortgateProperties(
        @NotNull @DefaultValue("http://localhost:8080") URI baseUrl) {

    public ShortgateProperties {
        String scheme = baseUrl.getScheme();
        if (baseUrl.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) {
            throw new IllegalArgumentException("shortgate.base-url must be an absolute http(s) URL, got " + baseUrl);
        }
    }

    /** The short URL for a code: the base URL with the code as its only path segment. */
    public String shortUrl(String code) {
        String base = baseUrl.toString();
        return base.endsWith("/") ? base + code : base + "/" + code;
    }
}
