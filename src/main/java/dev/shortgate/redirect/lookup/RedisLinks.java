package dev.shortgate.redirect.lookup;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.RedisCalls;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shared Redis tier: one string key per code holding the link in {@link LinkCodec}'s compact format. Every call goes through
 * {@link RedisCalls} (a timeout that tells Redis's silence from this pod's queueing, and a circuit breaker), so a
 * slow or absent Redis costs a redirect at most the timeout, and nothing once the breaker is open; a lookup then
 * falls through to the database. Lookups and their write-backs go through the lookups' calls; what creates and
 * changes write goes through the writes' calls, with their own bound and breaker.
 */
public final class RedisLinks implements RedisTier {

    private static final Logger log = LoggerFactory.getLogger(RedisLinks.class);
    /** How many more times a {@code SCAN} page Redis did not answer in time is asked for. */
    private static final int SCAN_RETRIES = 3;

    private final RedisCalls redis;
    private final RedisCalls writes;
    private final RedirectProperties.Redis settings;
    private final LinkCodec codec;
    private final SetArgs expiring;
    private final SetArgs expiringIfAbsent;
    private final Counter hits;
    private final Counter misses;
    private final Counter lookupErrors;

    public RedisLinks(
            RedisCalls redis,
            RedisCalls writes,
            RedirectProperties.Redis settings,
            JsonMapper json,
            MeterRegistry registry) {
        this.redis = redis;
        this.writes = writes;
        this.settings = settings;
        this.codec = new LinkCodec(json);
        this.expiring = SetArgs.Builder.px(settings.ttl().toMillis());
        this.expiringIfAbsent = SetArgs.Builder.px(settings.ttl().toMillis()).nx();
        this.hits = TieredLinkLookup.lookups(registry, "redis", "hit");
        this.misses = TieredLinkLookup.lookups(registry, "redis", "miss");
        this.lookupErrors = TieredLinkLookup.lookups(registry, "redis", "error");
    }

    /** Counts the answer as a hit or a miss, and a failure to answer in time as an error. */
    @Override
    public Mono<Optional<Link>> find(String code) {
        return get(code)
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .doOnNext(held -> (held.isPresent() ? hits : misses).increment())
                .doOnError(error -> {
                    lookupErrors.increment();
                    log.debug("Redis lookup failed, falling through to the database: {}", error.toString());
                });
    }

    /**
     * The links Redis holds for these codes, by code, in one {@code MGET} (one timeout, one breaker permission); a
     * value this build cannot read is left out, so its code is looked up as any other miss. Not counted as lookups.
     */
    @Override
    public Mono<Map<String, Link>> findAll(List<String> codes) {
        if (codes.isEmpty()) {
            return Mono.just(Map.of());
        }
        String[] keys = codes.stream().map(settings::linkKey).toArray(String[]::new);
        return redis.call(
                        RedisCalls.Operation.GET,
                        commands -> commands.strings().mget(keys).collectList())
                .map(values -> {
                    Map<String, Link> held = new HashMap<>();
                    for (int i = 0; i < values.size() && i < codes.size(); i++) {
                        KeyValue<String, byte[]> value = values.get(i);
                        if (value.hasValue()) {
                            try {
                                held.put(codes.get(i), codec.decode(value.getValue()));
                            } catch (IllegalArgumentException unreadable) {
                                log.debug("Unreadable link value for {}: {}", codes.get(i), unreadable.toString());
                            }
                        }
                    }
                    return held;
                });
    }

    /**
     * The codes under the link keys, a {@code SCAN} page at a time ({@code MATCH <prefix>link:*}, {@code COUNT page}),
     * each page one bounded call, asked again when Redis was late with it; on a Cluster, Lettuce's cursor walks every
     * master in turn.
     */
    @Override
    public Flux<List<String>> codes(int page) {
        String prefix = settings.linkKey("");
        ScanArgs args = ScanArgs.Builder.matches(prefix + "*").limit(page);
        return scan(ScanCursor.INITIAL, args)
                .expand(cursor -> cursor.isFinished() ? Mono.empty() : scan(cursor, args))
                .map(cursor -> cursor.getKeys().stream()
                        .filter(key -> key.startsWith(prefix))
                        .map(key -> key.substring(prefix.length()))
                        .toList())
                .filter(codes -> !codes.isEmpty());
    }

    /**
     * One page of the walk; a page Redis was late with is asked again (at most {@value #SCAN_RETRIES} more times) from
     * the same cursor: on a busy machine one late page used to end a starting pod's whole working-set preload, which
     * then became ready holding 8-63% of the links.
     */
    private Mono<KeyScanCursor<String>> scan(ScanCursor cursor, ScanArgs args) {
        return redis.call(RedisCalls.Operation.GET, commands -> commands.keys().scan(cursor, args))
                .retry(SCAN_RETRIES);
    }

    /** The cached link, or empty when Redis does not hold it; an error when Redis cannot answer in time. */
    public Mono<Link> get(String code) {
        return redis.call(
                        RedisCalls.Operation.GET, commands -> commands.strings().get(settings.linkKey(code)))
                .map(codec::decode);
    }

    @Override
    public Mono<Void> put(Link link) {
        return putAll(List.of(link));
    }

    /** One {@code SET} per link, all within one bounded call (one timeout, one breaker permission). */
    @Override
    public Mono<Void> putAll(List<Link> links) {
        return writes.call(RedisCalls.Operation.SET, commands -> Flux.fromIterable(links)
                .flatMap(link -> commands.strings().set(settings.linkKey(link.code()), codec.encode(link), expiring))
                .then());
    }

    /** Sets each link only where Redis holds nothing for its code, as {@link #keep}, within one bounded write. */
    @Override
    public Mono<Void> keepAll(List<Link> links) {
        return writes.call(RedisCalls.Operation.SET, commands -> Flux.fromIterable(links)
                .flatMap(link ->
                        commands.strings().set(settings.linkKey(link.code()), codec.encode(link), expiringIfAbsent))
                .then());
    }

    @Override
    public void keep(Link link) {
        redis.call(RedisCalls.Operation.SET, commands -> commands.strings()
                        .set(settings.linkKey(link.code()), codec.encode(link), expiringIfAbsent))
                .subscribe(done -> {}, error -> {});
    }

    @Override
    public Mono<Void> delete(String code) {
        return writes.call(
                        RedisCalls.Operation.DELETE, commands -> commands.keys().del(settings.linkKey(code)))
                .then();
    }
}
