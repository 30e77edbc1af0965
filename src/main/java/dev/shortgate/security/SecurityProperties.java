package dev.shortgate.security;

import java.time.Duration;

import dev.shortgate.system.settings.SecretSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * API security settings ({@code shortgate.security.*}).
 *
 * @param adminKey        the admin API key ({@code SHORTGATE_ADMIN_KEY}), at least 16 characters. Compared in
 *                        constant time against its SHA-256 hash; never logged. When unset in the embedded mode,
 *                        an admin key is generated at first start and printed once.
 * @param keyCacheTtl     how long a pod trusts a key it has looked up; a revoked key stops working on other pods
 *                        within this time
 * @param maxBodySize     the largest request body on {@code /api/**} except batch creates
 * @param maxBatchBodySize the largest body of {@code POST /api/v1/links/batch} (1000 URLs)
 * @param maxImportBodySize the largest body of {@code POST /api/v1/imports} (a CSV file, written to a temporary
 *                        file as it arrives, never held in memory)
 * @param rateLimit       request budgets
 */
@ConfigurationProperties("shortgate.security")
@Validated
public record SecurityProperties(
        String adminKey,
        @NotNull @DefaultValue("30s") Duration keyCacheTtl,
        @Positive @DefaultValue("65536") long maxBodySize,
        @Positive @DefaultValue("5242880") long maxBatchBodySize,
        @Positive @DefaultValue("1073741824") long maxImportBodySize,
        @Valid @DefaultValue RateLimit rateLimit) {

    public SecurityProperties {
        SecretSettings.check("shortgate.security.admin-key", adminKey);
    }

    /**
     * Token buckets, shared across pods through Redis when it is configured, else per pod.
     *
     * @param apiCapacity      requests a key may burst on {@code /api/**}
     * @param apiRefill        requests a key regains per {@code apiPeriod}
     * @param apiPeriod        the refill period for API keys
     * @param notFoundCapacity unknown-code 404s a client IP may burst before it gets 429s (hits on real codes
     *                         are never limited)
     * @param notFoundRefill   unknown-code 404s a client IP regains per {@code notFoundPeriod}
     * @param notFoundPeriod   the refill period for unknown-code 404s
     * @param redisTimeout     how long a check waits for the shared bucket in Redis before using the pod's own
     * @param authFailureCapacity wrong API keys a client IP may present before it gets 429s; past that, only
     *                         keys this pod already knows are looked at, so guessing costs no database query
     * @param authFailureRefill   wrong keys a client IP regains per {@code authFailurePeriod}
     * @param authFailurePeriod   the refill period for wrong keys
     * @param redisSlack       the share of a key's {@code apiCapacity} a pod may take from its copy of the shared
     *                         bucket before it settles with Redis (0 to 0.1): the pods together may go over a burst
     *                         by at most this share each, and the bucket owes it back; 0 settles every request
     * @param redisSyncInterval the longest a pod answers from its copy of a shared bucket before it settles
     */
    public record RateLimit(
            @Positive @DefaultValue("200") long apiCapacity,
            @Positive @DefaultValue("100") long apiRefill,
            @NotNull @DefaultValue("1s") Duration apiPeriod,
            @Positive @DefaultValue("100") long notFoundCapacity,
            @Positive @DefaultValue("10") long notFoundRefill,
            @NotNull @DefaultValue("1s") Duration notFoundPeriod,
            @NotNull @DefaultValue("100ms") Duration redisTimeout,
            @Positive @DefaultValue("20") long authFailureCapacity,
            @Positive @DefaultValue("2") long authFailureRefill,
            @NotNull @DefaultValue("1s") Duration authFailurePeriod,

            @DecimalMin("0") @DecimalMax("0.1") @DefaultValue("0.01")
            double redisSlack,

            @NotNull @DefaultValue("100ms") Duration redisSyncInterval) {}
}
