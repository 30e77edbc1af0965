package dev.shortgate.system.database;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How a transaction that lost a write conflict is tried again (a Galera certification failure or an InnoDB deadlock,
 * error 1213; a lock wait timeout, error 1205): docs/adr/0021-galera.md.
 *
 * @param attempts   attempts in all, the first included; when the last one loses too, the conflict's error goes to
 *                   the caller (an API request answers 503 with {@code Retry-After})
 * @param backoff    the wait before the first retry; each further retry waits twice as long, up to {@code
 *                   max-backoff}, each wait jittered by up to half its length
 * @param maxBackoff the longest wait between two attempts
 */
@ConfigurationProperties("shortgate.database.conflict-retry")
@Validated
public record ConflictRetryProperties(
        @Positive @DefaultValue("6") int attempts,
        @NotNull @DefaultValue("5ms") Duration backoff,
        @NotNull @DefaultValue("200ms") Duration maxBackoff) {

    /** The defaults, for code that is built without Spring (tests, the benchmark tools). */
    public static ConflictRetryProperties defaults() {
        return new ConflictRetryProperties(6, Duration.ofMillis(5), Duration.ofMillis(200));
    }
}
