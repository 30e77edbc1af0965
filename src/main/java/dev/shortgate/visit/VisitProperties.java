package dev.shortgate.visit;

import java.time.Duration;
import java.util.List;

import dev.shortgate.system.settings.SecretSettings;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Visit analytics settings ({@code shortgate.visit.*}).
 *
 * @param enabled              whether redirects record visits at all; off makes {@code record} a no-op
 * @param bufferCapacity       most raw visits held in memory at once: queued, batched, or being written. A raw
 *                             visit arriving when this many are held is dropped and counted
 *                             ({@code shortgate.visits.dropped{reason="buffer_full"}}); its counts are kept
 * @param batchSize            most raw visits per batch; a batch is written when it is full
 * @param flushInterval        longest a raw visit waits for its batch to fill before the batch is written anyway
 * @param writeConcurrency     most raw batches written at the same time (each takes one database connection):
 *                             one at a time while the writes keep up, more only while at least two batches' worth
 *                             of rows wait beyond those being written
 * @param retryBackoff         first delay before a failed write (raw batch or count flush) is tried again
 * @param retryMaxBackoff      longest delay between two tries; a failed write is retried until it succeeds or
 *                             shutdown gives up on it
 * @param writeTimeout         deadline of one write attempt; the database's lock waits are set to half of it
 *                             (at least 1 s), so a write that hangs (a table lock, a read lock on the whole
 *                             server) fails on the server, rolls back and is tried again
 * @param shutdownFlushTimeout how long shutdown waits for held visits and counts to be written; raw visits still
 *                             held then are counted as dropped ({@code reason="shutdown"})
 * @param countsFlushInterval  how often each pod writes the counts it has gathered (per link, UTC day and
 *                             dimension); also the most counts a killed pod (SIGKILL) can lose
 * @param sketchFlushInterval  how often each pod takes its changed unique-visitor sketches for writing; they are
 *                             written 2,000 after each count flush, and all of them at shutdown
 * @param countsWriteConcurrency most count transactions of one flush written at the same time, each on a
 *                             connection of its own (a flush of many links comes in transactions of whole links, so
 *                             they touch different rows): one at a time while the flush keeps within its interval,
 *                             more only once it runs longer. While a count flush runs longer than
 *                             {@code counts-flush-interval}, raw batches are written one at a time, so the counts
 *                             get the database first
 * @param maxLabels            most labels a pod keeps per link, UTC day and dimension (countries, browsers,
 *                             operating systems, device classes, referrer hosts); further labels count as "other"
 * @param maxDistinctPerCode   most distinct (user agent, network, referrer host) combinations a pod holds per link
 *                             between two count flushes; visits beyond it are counted with their dimensions as
 *                             "other", so memory follows the active links, not the traffic
 * @param rawRetention         raw visit rows older than this are deleted in the background; counts, dimensions
 *                             and sketches are kept
 * @param retentionInterval    how often the background deletion of old raw visits runs
 * @param retentionBatchSize   raw visit rows deleted per statement, so no deletion holds locks for long
 * @param userAgentMaxLength   user agents are cut to this many characters before anything else sees them
 * @param refererMaxLength     referers are cut to this many characters
 * @param storeRawIp           store the full client IP; by default it is anonymised (IPv4 /24, IPv6 /64)
 * @param trustedProxies       CIDR blocks of the proxies in front of Shortgate (the ingress). Only requests
 *                             from these have their {@code X-Forwarded-For} believed; empty means none
 * @param geoipDatabase        path of a MaxMind GeoIP2/GeoLite2 City {@code .mmdb} file; unset leaves country
 *                             and city empty
 * @param clientIdSecret       key of the client-id HMAC. Unset: a random key made once and shared through the
 *                             database. It must be secret and stable: anyone who has it can test guessed IPs
 *                             against stored client ids
 */
@ConfigurationProperties("shortgate.visit")
@Validated
public record VisitProperties(
        @DefaultValue("true") boolean enabled,
        @Positive @DefaultValue("100000") int bufferCapacity,
        @Positive @Max(10_000) @DefaultValue("2000") int batchSize,
        @NotNull @DefaultValue("250ms") Duration flushInterval,
        @Positive @Max(64) @DefaultValue("4") int writeConcurrency,
        @NotNull @DefaultValue("200ms") Duration retryBackoff,
        @NotNull @DefaultValue("10s") Duration retryMaxBackoff,
        @NotNull @DefaultValue("10s") Duration writeTimeout,
        @NotNull @DefaultValue("15s") Duration shutdownFlushTimeout,
        @NotNull @DefaultValue("1s") Duration countsFlushInterval,
        @NotNull @DefaultValue("30s") Duration sketchFlushInterval,
        @Positive @Max(16) @DefaultValue("2") int countsWriteConcurrency,
        @Positive @Max(10_000) @DefaultValue("100") int maxLabels,
        @Positive @DefaultValue("1000") int maxDistinctPerCode,
        @NotNull @DefaultValue("90d") Duration rawRetention,
        @NotNull @DefaultValue("10m") Duration retentionInterval,
        @Positive @Max(100_000) @DefaultValue("5000") int retentionBatchSize,
        @Positive @Max(4096) @DefaultValue("512") int userAgentMaxLength,
        @Positive @Max(4096) @DefaultValue("1024") int refererMaxLength,
        @DefaultValue("false") boolean storeRawIp,
        @DefaultValue List<String> trustedProxies,
        String geoipDatabase,
        String clientIdSecret) {

    public VisitProperties {
        SecretSettings.check("shortgate.visit.client-id-secret", clientIdSecret);
        positive("flush-interval", flushInterval);
        positive("retry-max-backoff", retryMaxBackoff);
        positive("write-timeout", writeTimeout);
        positive("counts-flush-interval", countsFlushInterval);
        positive("sketch-flush-interval", sketchFlushInterval);
        positive("raw-retention", rawRetention);
        positive("retention-interval", retentionInterval);
        if (retryBackoff.isNegative()) {
            throw new IllegalArgumentException("shortgate.visit.retry-backoff must not be negative");
        }
        if (shutdownFlushTimeout.isNegative()) {
            throw new IllegalArgumentException("shortgate.visit.shutdown-flush-timeout must not be negative");
        }
    }

    /** Whole seconds the database may wait for a lock during a visit write: half the write timeout, at least 1. */
    long lockWaitSeconds() {
        return Math.max(1, writeTimeout.dividedBy(2).toSeconds());
    }

    private static void positive(String name, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("shortgate.visit." + name + " must be positive, got " + value);
        }
    }
}
