package dev.shortgate.shlink;

import java.time.Duration;
import java.util.List;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Shlink's REST API under {@code /rest} ({@code shortgate.shlink.*}).
 *
 * @param corsAllowedOrigins origins a browser may call {@code /rest/**} from, such as where shlink-web-client is
 *                           served ({@code https://app.shlink.io}); {@code *} allows any. Empty (the default): no
 *                           CORS headers, so only same-origin pages and non-browser clients can use the API. The
 *                           API key travels in a header, never in a cookie, so {@code *} exposes nothing by itself.
 * @param corsMaxAge         how long a browser may cache a preflight answer ({@code Access-Control-Max-Age})
 */
@ConfigurationProperties("shortgate.shlink")
@Validated
record ShlinkProperties(
        @NotNull @DefaultValue List<String> corsAllowedOrigins,
        @NotNull @DefaultValue("1h") Duration corsMaxAge) {

    /**
     * The Shlink version whose REST API this implements; shlink-web-client picks its features by it (its filters
     * by domain and excluded tags from 4.3 and 4.6, its redirect-rule conditions from 4.2 to 5.0). Every API
     * feature up to 5.1.5 is served: redirect rules with every condition (browser came in 5.1), the list filters,
     * deleting visits, the domain's redirects. Mercure is optional in Shlink too (501 without a hub).
     */
    static final String VERSION = "5.1.5";

    boolean corsEnabled() {
        return !corsAllowedOrigins.isEmpty();
    }

    /** The {@code Access-Control-Allow-Origin} value for a request from {@code origin}, or {@code null}. */
    String allowedOrigin(String origin) {
        if (corsAllowedOrigins.contains("*")) {
            return "*";
        }
        return origin != null && corsAllowedOrigins.contains(origin) ? origin : null;
    }
}
