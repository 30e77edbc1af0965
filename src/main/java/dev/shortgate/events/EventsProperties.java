package dev.shortgate.events;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Live updates and Shlink's integrations ({@code shortgate.events.*}).
 *
 * @param enabled        whether visits and new links become events at all; off, nothing is taken from the intake
 * @param bufferCapacity facts (visits, new links) held before they are turned into updates; one that finds the
 *                       buffer full is dropped and counted ({@code shortgate.events.dropped{sink="source"}})
 * @param maxRate        facts taken per second at most, a second's worth at once; past it a fact is dropped and counted
 *                       ({@code shortgate.events.dropped{sink="source",reason="rate"}}); 0: no bound
 * @param flushInterval  how long the first fact into the idle worker waits for others to be turned into updates with
 *                       (their short URLs read together); also the least time between two partial batches
 * @param shortUrlCacheTtl how long the short URL shown in a visit's update is reused before it is read again (its
 *                       visit totals trail by up to this much)
 * @param mercure        the Mercure hub Shortgate serves for shlink-web-client's live updates
 * @param redis          Shlink's Redis pub/sub integration
 * @param rabbitmq       Shlink's RabbitMQ integration
 */
@ConfigurationProperties("shortgate.events")
@Validated
public record EventsProperties(
        @DefaultValue("true") boolean enabled,
        @Positive @DefaultValue("10000") int bufferCapacity,
        @PositiveOrZero @DefaultValue("1000") int maxRate,
        @NotNull @DefaultValue("50ms") Duration flushInterval,
        @NotNull @DefaultValue("5s") Duration shortUrlCacheTtl,
        @Valid @NotNull @DefaultValue Mercure mercure,
        @Valid @NotNull @DefaultValue Redis redis,
        @Valid @NotNull @DefaultValue Rabbitmq rabbitmq) {

    /**
     * @param enabled        whether {@code /rest/v3/mercure-info} and {@code /.well-known/mercure} are served
     * @param publicHubUrl   the origin clients reach the hub at ({@code /.well-known/mercure} is appended); empty:
     *                       {@code shortgate.base-url}
     * @param jwtSecret      the HS256 key of subscriber tokens, at least 32 bytes, the same on every pod; empty: a
     *                       random key per pod (a token then works only on the pod that issued it)
     * @param jwtDays        how long a token from {@code mercure-info} is valid, in days
     * @param maxSubscribers open event streams allowed per pod; past it a subscription answers 503
     * @param subscriberBuffer updates held for one subscriber; a subscriber that falls this far behind is dropped
     * @param heartbeat      how often an idle stream gets a comment, so proxies keep it open
     * @param channel        the Redis channel that carries updates between pods (when Redis is configured)
     * @param corsAllowedOrigins origins a browser may open the hub from (shlink-web-client's); empty: those of
     *                       {@code shortgate.shlink.cors-allowed-origins}; {@code *} allows any
     */
    public record Mercure(
            @DefaultValue("true") boolean enabled,
            URI publicHubUrl,
            String jwtSecret,
            @Positive @DefaultValue("1") int jwtDays,
            @Positive @DefaultValue("1000") int maxSubscribers,
            @Positive @Max(100_000) @DefaultValue("256") int subscriberBuffer,
            @NotNull @DefaultValue("15s") Duration heartbeat,

            @NotNull @DefaultValue("shortgate:events:mercure")
            String channel,

            @NotNull @DefaultValue List<String> corsAllowedOrigins) {}

    /**
     * @param enabled whether updates are published on Redis pub/sub, one channel per Shlink topic
     * @param perCodeTopic whether {@code https://shlink.io/new-visit/{shortCode}} is published too
     */
    public record Redis(
            @DefaultValue("false") boolean enabled,
            @DefaultValue("false") boolean perCodeTopic) {}

    /**
     * @param enabled        whether updates are published to RabbitMQ ({@code spring.rabbitmq.*} for the broker)
     * @param perCodeTopic   whether {@code https://shlink.io/new-visit/{shortCode}} is published too: it declares an
     *                       exchange and a durable queue per short code, a hazard with many codes
     * @param bufferCapacity updates held for the broker; one that finds the buffer full is dropped and counted
     * @param batchSize      updates sent on one channel before waiting for the broker's confirms
     * @param flushInterval  how long a batch waits to fill
     * @param confirmTimeout how long a batch waits for its confirms; then it counts as not confirmed
     * @param nio            whether the client writes through its NIO loop ({@code ConnectionFactory#useNio}), which
     *                       may send a batch's frames with fewer socket writes than the blocking client's one flush per
     *                       message, at the price of a thread hand-off (no difference measured; see performance.md)
     */
    public record Rabbitmq(
            @DefaultValue("false") boolean enabled,
            @DefaultValue("false") boolean perCodeTopic,
            @Positive @DefaultValue("10000") int bufferCapacity,
            @Positive @Max(10_000) @DefaultValue("100") int batchSize,
            @NotNull @DefaultValue("50ms") Duration flushInterval,
            @NotNull @DefaultValue("5s") Duration confirmTimeout,
            @DefaultValue("false") boolean nio) {}
}
