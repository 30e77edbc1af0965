package dev.shortgate.redirect;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.LinkLookup.Found;
import io.lettuce.core.SetArgs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shared Redis tier: one string key per code holding the link in {@link LinkCodec}'s compact format. Every call goes through
 * {@link RedisCalls} (a timeout that tells Redis's silence from this pod's queueing, and a circuit breaker), so a
 * slow or absent Redis costs a redirect at most the timeout, and nothing once the breaker is open; a lookup then
 * falls through to the database.
 */
final class RedisLinks implements RedisTier {

    private static final Logger log = LoggerFactory.getLogger(RedisLinks.class);

    private final RedisCalls redis;
    private final ReactiveStringRedisTemplate pubSub;
    private final RedirectProperties.Redis settings;
    private final LinkCodec codec;
    private final SetArgs expiring;
    private final SetArgs expiringIfAbsent;
    private final Counter hits;
    private final Counter misses;
    private final Counter lookupErrors;

    RedisLinks(RedisCalls redis, ReactiveStringRedisTemplate pubSub, RedirectProperties.Redis settings,
               JsonMapper json, MeterRegistry registry) {
        this.redis = redis;
        this.pubSub = pubSub;
        this.settings = settings;
        this.codec = new LinkCodec(json);
        this.expiring = SetArgs.Builder.px(settings.ttl().toMillis());
        this.expiringIfAbsent = SetArgs.Builder.px(settings.ttl().toMillis()).nx();
        this.hits = TieredLinkLookup.lookups(registry, "redis", "hit");
        this.misses = TieredLinkLookup.lookups(registry, "redis", "miss");
        this.lookupErrors = TieredLinkLookup.lookups(registry, "redis", "error");
    }

    /** Markers for "Redis does not hold it" and "Redis could not answer": both mean "ask below". */
    private static final Found NOT_HELD = Found.of(null, Tier.REDIS);
    private static final Found UNANSWERED = Found.of(null, Tier.REDIS);

    @Override
    public Mono<Found> find(String code, Below below) {
        return get(code)
                .map(link -> {
                    hits.increment();
                    return Found.of(link, Tier.REDIS);
                })
                .defaultIfEmpty(NOT_HELD)
                .onErrorResume(error -> {
                    log.debug("Redis lookup failed, falling through to the database: {}", error.toString());
                    return Mono.just(UNANSWERED);
                })
                .flatMap(found -> {
                    if (found != NOT_HELD && found != UNANSWERED) {
                        return Mono.just(found);
                    }
                    (found == NOT_HELD ? misses : lookupErrors).increment();
                    return below.find(found == NOT_HELD).doOnNext(this::writeBack);
                });
    }

    /** The cached link, or empty when Redis does not hold it; an error when Redis cannot answer in time. */
    Mono<Link> get(String code) {
        return redis.call(RedisCalls.Operation.GET, commands -> commands.strings().get(settings.linkKey(code)))
                .map(codec::decode);
    }

    @Override
    public Mono<Void> put(Link link) {
        return redis.call(RedisCalls.Operation.SET, commands -> commands.strings().set(settings.linkKey(link.code()),
                codec.encode(link), expiring)).then();
    }

    /** What a lookup found below, written only where Redis holds nothing: a write-back never overwrites a change. */
    private void writeBack(Found found) {
        found.link().ifPresent(link -> redis.call(RedisCalls.Operation.SET, commands -> commands.strings().set(
                settings.linkKey(link.code()), codec.encode(link), expiringIfAbsent))
                .subscribe(done -> { }, error -> { }));
    }

    @Override
    public Mono<Void> delete(String code) {
        return redis.call(RedisCalls.Operation.DELETE, commands -> commands.keys().del(settings.linkKey(code))).then();
    }

    @Override
    public Mono<Void> publishInvalidation(String code) {
        return redis.call(RedisCalls.Operation.PUBLISH, commands -> commands.server().publish(settings.invalidationChannel(),
                code.getBytes(java.nio.charset.StandardCharsets.UTF_8))).then();
    }

    @Override
    public Flux<String> invalidations() {
        // Spring's listener container opens its connection with a blocking call: never on an event loop or a
        // timer thread. Deferred, so a Redis that is down does not fail startup.
        return Flux.defer(() -> pubSub.listenToChannel(settings.invalidationChannel()))
                .map(message -> message.getMessage())
                .subscribeOn(Schedulers.boundedElastic());
    }

}
