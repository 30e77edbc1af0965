package dev.shortgate.system.web;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Deadlines of the API ({@code shortgate.api.*}): no API request waits on a backend without bound.
 *
 * @param deadline      the longest any {@code /api/**} request may take, authentication included; past it the
 *                      request answers 503 {@code deadline-exceeded} with {@code Retry-After}
 * @param batchDeadline the longest a batch create may take. Items not finished by then answer a per-item
 *                      {@code deadline-exceeded} problem; the items that were done are answered as usual
 * @param announceWait  how long a create waits for Redis to take its announcement (the unknown-code guard's bits,
 *                      the link, the invalidation message) before answering; past it the announcement goes on in
 *                      the background, bounded by the redirect load deadline
 */
@ConfigurationProperties("shortgate.api")
@Validated
public record ApiProperties(
        @NotNull @DefaultValue("10s") Duration deadline,
        @NotNull @DefaultValue("30s") Duration batchDeadline,
        @NotNull @DefaultValue("250ms") Duration announceWait) {

    public ApiProperties {
        for (Duration d : new Duration[] {deadline, batchDeadline}) {
            if (d.compareTo(Duration.ofMillis(100)) < 0) {
                throw new IllegalArgumentException("shortgate.api deadlines must be at least 100ms, got " + d);
            }
        }
        if (announceWait.isNegative()) {
            throw new IllegalArgumentException("shortgate.api.announce-wait must not be negative");
        }
    }
}
