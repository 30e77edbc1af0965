package dev.shortgate.redirect;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Redirect path settings ({@code shortgate.redirect.*}).
 *
 * @param nearCache       the in-process Caffeine tier
 * @param redis           the shared Redis tier (used only when Redis is configured)
 * @param permanentMaxAge how long browsers may cache a 301/308 ({@code Cache-Control: public, max-age})
 * @param retryAfter      the {@code Retry-After} sent with a 503 when the database cannot answer
 * @param dbTimeout       how long a redirect waits for the database (a 503 after that, never a hang)
 */
@ConfigurationProperties("shortgate.redirect")
@Validated
record RedirectProperties(@Valid @DefaultValue NearCache nearCache,
                          @Valid @DefaultValue Redis redis,
                          @NotNull @DefaultValue("1h") Duration permanentMaxAge,
                          @NotNull @DefaultValue("5s") Duration retryAfter,
                          @NotNull @DefaultValue("1s") Duration dbTimeout) {

    /**
     * @param maxSize     most links held per pod (each costs a few hundred bytes plus its URL)
     * @param ttl         how long a found link is held. Cross-pod invalidation normally evicts a changed link
     *                    within a second; this is the bound on staleness when that message is lost.
     * @param negativeTtl how long an unknown code is remembered as unknown, so floods of one bad code do not
     *                    reach the database each time. Creating the code evicts it on every pod.
     */
    record NearCache(@Positive @DefaultValue("100000") long maxSize,
                     @NotNull @DefaultValue("60s") Duration ttl,
                     @NotNull @DefaultValue("5s") Duration negativeTtl) {
    }

    /**
     * @param timeout   how long a redirect waits for Redis before falling through to the database
     * @param ttl       how long a link stays in Redis after it was last written there
     * @param keyPrefix prefix of every key and channel Shortgate uses, so several deployments can share a server
     * @param repair    background retries of a link change Redis could not take when it was made
     */
    record Redis(@NotNull @DefaultValue("100ms") Duration timeout,
                 @NotNull @DefaultValue("1h") Duration ttl,
                 @NotBlank @DefaultValue("sg:") String keyPrefix,
                 @Valid @DefaultValue Repair repair) {

        /**
         * @param attempts     retries before giving up (then other pods may serve the old state until the TTL)
         * @param firstBackoff wait before the first retry; it doubles each time, with jitter
         * @param maxBackoff   longest wait between retries
         */
        record Repair(@Positive @DefaultValue("20") int attempts,
                      @NotNull @DefaultValue("500ms") Duration firstBackoff,
                      @NotNull @DefaultValue("30s") Duration maxBackoff) {
        }

        String linkKey(String code) {
            return keyPrefix + "link:" + code;
        }

        String invalidationChannel() {
            return keyPrefix + "invalidate";
        }
    }
}
