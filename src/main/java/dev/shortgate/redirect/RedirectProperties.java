package dev.shortgate.redirect;

import java.time.Duration;

import dev.shortgate.redirect.lookup.NearCache;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
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
 * @param fastPath        answer redirects in the Netty pipeline, ahead of Spring's dispatcher (see
 *                        {@code FastRedirects}); off sends every redirect through the general stack
 * @param guard           the unknown-code guard: a Bloom filter of every code, so unknown codes do not reach the
 *                        database
 * @param maxDbLookups    redirect lookups waiting on the database at once per pod; past this a lookup answers 503 at
 *                        once rather than queue for a connection. It bounds the pile-up when the database stops
 *                        answering, not the normal queue for a connection: 200 lookups at about a millisecond each
 *                        on a pool of 20 wait about 10 ms (a bound of 40 shed most of a 64-connection bench)
 * @param drainTimeout    on shutdown, how long open traffic connections are still answered (each answer with
 *                        {@code Connection: close}) before those still idle are closed; within the first shutdown
 *                        phase ({@code spring.lifecycle.timeout-per-shutdown-phase})
 */
@ConfigurationProperties("shortgate.redirect")
@Validated
public record RedirectProperties(
        @Valid @DefaultValue NearCache nearCache,
        @Valid @DefaultValue Redis redis,
        @NotNull @DefaultValue("1h") Duration permanentMaxAge,
        @NotNull @DefaultValue("5s") Duration retryAfter,
        @NotNull @DefaultValue("1s") Duration dbTimeout,
        @DefaultValue("true") boolean fastPath,
        @Valid @DefaultValue Guard guard,
        @Positive @DefaultValue("200") int maxDbLookups,
        @NotNull @DefaultValue("3s") Duration drainTimeout) {

    public RedirectProperties {
        if (redis.queueingLimit().compareTo(redis.timeout()) < 0) {
            throw new IllegalArgumentException("shortgate.redirect.redis.queueing-limit (" + redis.queueingLimit()
                    + ") must not be below shortgate.redirect.redis.timeout (" + redis.timeout() + ")");
        }
        if (nearCache.loadDeadline().compareTo(redis.queueingLimit().plus(dbTimeout)) <= 0) {
            throw new IllegalArgumentException(
                    "shortgate.redirect.near-cache.load-deadline (" + nearCache.loadDeadline()
                            + ") must exceed shortgate.redirect.redis.queueing-limit plus shortgate.redirect.db-timeout ("
                            + redis.queueingLimit().plus(dbTimeout) + ")");
        }
    }

    /**
     * @param maxSize     most links held per pod (each costs a few hundred bytes plus its URL)
     * @param ttl         how long a found link is held. Cross-pod invalidation normally evicts a changed link
     *                    within a second; this is the bound on staleness when that message is lost.
     * @param negativeTtl how long an unknown code is remembered as unknown, so floods of one bad code do not
     *                    reach the database each time. Creating the code evicts it on every pod.
     * @param loadDeadline the longest a lookup below the near cache (Redis, the database and the write-back) may
     *                    take, whatever stalls it; then it is cancelled, the request answers 503 and the next
     *                    request starts afresh. Must exceed the Redis timeout plus the database timeout.
     * @param maxLoads    most lookups below the near cache in flight at once on a pod; a miss past this answers
     *                    503 with Retry-After at once instead of queueing behind the others
     */
    public record NearCache(
            @Positive @DefaultValue("100000") long maxSize,
            @NotNull @DefaultValue("60s") Duration ttl,
            @NotNull @DefaultValue("5s") Duration negativeTtl,
            @NotNull @DefaultValue("2s") Duration loadDeadline,
            @Positive @DefaultValue("1000") int maxLoads) {}

    /**
     * @param enabled           off lets every unknown code reach the database
     * @param expectedLinks     links the filter is sized for; past this its false-positive rate rises smoothly. It
     *                          takes about 1.8 bytes per link at 0.1% (18 MB for 10 million), in Redis when Redis is
     *                          configured and in each pod's heap otherwise
     * @param falsePositiveRate share of unknown codes the filter lets through to the database
     * @param verifyPerSecond   codes the filter rejects that are still looked up, per second and pod, so a code
     *                          that reached the database without a create (an import) is found and added
     * @param verifyBurst       how many such look-ups may come at once
     * @param refresh           without Redis: how often a pod adds the codes created since its last look (by other
     *                          pods sharing the database, or inserted directly)
     */
    public record Guard(
            @DefaultValue("true") boolean enabled,
            @Positive @DefaultValue("10000000") long expectedLinks,

            @DecimalMin("0.000001") @DecimalMax("0.5") @DefaultValue("0.001")
            double falsePositiveRate,

            @Positive @DefaultValue("1") long verifyPerSecond,
            @Positive @DefaultValue("10") long verifyBurst,
            @NotNull @DefaultValue("10s") Duration refresh) {}

    /**
     * @param timeout   how long a redirect waits for Redis before falling through to the database, when Redis has
     *                  answered nothing else meanwhile
     * @param queueingLimit how long a redirect keeps waiting for Redis while Redis does answer other calls: the delay
     *                  is then this pod's own queueing, and the answer is cheaper to wait for than the database
     * @param hedgeAfter how long a redirect waits for Redis before it asks the database too (the first answer wins,
     *                  and Redis's call goes on for its breaker to judge); {@code 0} waits for Redis alone
     * @param ttl       how long a link stays in Redis after it was last written there
     * @param keyPrefix prefix of every key and channel Shortgate uses, so several deployments can share a server
     * @param repair    background retries of a link change, or of a create's announcement, that Redis could not
     *                  take when it was made
     * @param writes    what creates and changes write to Redis: bounds and a circuit breaker of their own
     * @param channelCheck how often a pod checks its subscription to the invalidation channel end to end (a probe of
     *                  its own through Redis); one that does not come back within two checks, or a Redis out of
     *                  reach for that long, makes the pod subscribe again and clear its near cache
     */
    public record Redis(
            @NotNull @DefaultValue("100ms") Duration timeout,
            @NotNull @DefaultValue("500ms") Duration queueingLimit,
            @NotNull @DefaultValue("100ms") Duration hedgeAfter,
            @NotNull @DefaultValue("1h") Duration ttl,
            @NotBlank @DefaultValue("sg:") String keyPrefix,
            @Valid @DefaultValue Repair repair,
            @Valid @DefaultValue Writes writes,
            @NotNull @DefaultValue("2s") Duration channelCheck) {

        public Redis {
            if (writes.deadline().compareTo(writes.timeout()) < 0) {
                throw new IllegalArgumentException("shortgate.redirect.redis.writes.deadline (" + writes.deadline()
                        + ") must not be below shortgate.redirect.redis.writes.timeout (" + writes.timeout() + ")");
            }
        }

        /**
         * @param timeout  how long a write waits for Redis when Redis has answered nothing else meanwhile (Redis is
         *                 down or hung); the write then fails and counts against the writes' breaker
         * @param deadline the longest a write may wait while Redis does answer other calls (this pod is queueing),
         *                 and the longest a create's whole announcement (the guard's bits, the links, the
         *                 invalidation messages) may take; what did not make it is retried in the background
         */
        public record Writes(
                @NotNull @DefaultValue("500ms") Duration timeout,
                @NotNull @DefaultValue("2s") Duration deadline) {}

        /**
         * @param attempts     retries before giving up (then other pods may serve the old state until the TTL)
         * @param firstBackoff wait before the first retry; it doubles each time, with jitter
         * @param maxBackoff   longest wait between retries
         */
        public record Repair(
                @Positive @DefaultValue("20") int attempts,
                @NotNull @DefaultValue("500ms") Duration firstBackoff,
                @NotNull @DefaultValue("30s") Duration maxBackoff) {}

        public String linkKey(String code) {
            return keyPrefix + "link:" + code;
        }

        public String invalidationChannel() {
            return keyPrefix + "invalidate";
        }
    }
}
