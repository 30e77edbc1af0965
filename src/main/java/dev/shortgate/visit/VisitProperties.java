package dev.shortgate.visit;

import java.time.Duration;
import java.util.List;

import dev.shortgate.system.SecretSettings;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Visit analytics settings ({@code shortgate.visit.*}).
 *
 * @param enabled              whether redirects record visits at all; off makes {@code record} a no-op
 * @param bufferCapacity       most visits held in memory at once: queued, batched, or being written. A visit
 *                             arriving when this many are held is dropped and counted
 *                             ({@code shortgate.visits.dropped{reason="buffer_full"}})
 * @param batchSize            most visits per batch; a batch is written when it is full
 * @param flushInterval        longest a visit waits for its batch to fill before the batch is written anyway
 * @param writeConcurrency     batches written at the same time (each takes one database connection)
 * @param retryAttempts        retries of a batch whose write failed, before its visits are dropped and counted
 * @param retryBackoff         first retry delay; each further retry waits about twice as long
 * @param shutdownFlushTimeout how long shutdown waits for buffered visits to be written; whatever is still held
 *                             then is counted as dropped ({@code reason="shutdown"})
 * @param userAgentMaxLength   user agents are cut to this many characters before anything else sees them
 * @param refererMaxLength     referers are cut to this many characters
 * @param storeRawIp           store the full client IP; by default it is anonymised (IPv4 /24, IPv6 /64)
 * @param trustedProxies       CIDR blocks of the proxies in front of Shortgate (the ingress). Only requests
 *                             from these have their {@code X-Forwarded-For} believed; empty means none
 * @param geoipDatabase        path of a MaxMind GeoIP2/GeoLite2 City {@code .mmdb} file; unset leaves country
 *                             and city empty
 * @param clientIdSecret       key of the client-id HMAC (unique-visitor counting). Unset: a random key made once
 *                             and shared through the database. It must be secret and stable: anyone who has it can
 *                             test guessed IPs against stored client ids, and changing it restarts unique counts
 */
@ConfigurationProperties("shortgate.visit")
@Validated
record VisitProperties(@DefaultValue("true") boolean enabled,
                       @Positive @DefaultValue("100000") int bufferCapacity,
                       @Positive @Max(10_000) @DefaultValue("500") int batchSize,
                       @NotNull @DefaultValue("250ms") Duration flushInterval,
                       @Positive @Max(64) @DefaultValue("4") int writeConcurrency,
                       @PositiveOrZero @Max(20) @DefaultValue("5") int retryAttempts,
                       @NotNull @DefaultValue("200ms") Duration retryBackoff,
                       @NotNull @DefaultValue("10s") Duration shutdownFlushTimeout,
                       @Positive @Max(4096) @DefaultValue("512") int userAgentMaxLength,
                       @Positive @Max(4096) @DefaultValue("1024") int refererMaxLength,
                       @DefaultValue("false") boolean storeRawIp,
                       @DefaultValue List<String> trustedProxies,
                       String geoipDatabase,
                       String clientIdSecret) {

    VisitProperties {
        SecretSettings.check("shortgate.visit.client-id-secret", clientIdSecret);
        if (flushInterval.isNegative() || flushInterval.isZero()) {
            throw new IllegalArgumentException("shortgate.visit.flush-interval must be positive, got " + flushInterval);
        }
        if (retryBackoff.isNegative()) {
            throw new IllegalArgumentException("shortgate.visit.retry-backoff must not be negative");
        }
        if (shutdownFlushTimeout.isNegative()) {
            throw new IllegalArgumentException("shortgate.visit.shutdown-flush-timeout must not be negative");
        }
    }
}
