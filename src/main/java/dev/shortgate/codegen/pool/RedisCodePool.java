package dev.shortgate.codegen.pool;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;

import dev.shortgate.system.redis.SharedRedis;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The pool in Redis: one set per code length, {@code {prefix}codegen:pool:{length}}, filled with {@code SADD} and
 * taken from with {@code SPOP}, which removes and returns members atomically (a group of creates takes its codes in one
 * {@code SPOP key count}). Every call is bounded by
 * {@code timeout}; a take that cannot answer in time counts as an empty pool.
 */
public final class RedisCodePool implements CodePool {

    private final SharedRedis redis;
    private final String prefix;
    private final Duration timeout;
    private final Scheduler timer;

    public RedisCodePool(SharedRedis redis, String keyPrefix, Duration timeout, Scheduler timer) {
        this.redis = redis;
        this.prefix = keyPrefix + "codegen:pool:";
        this.timeout = timeout;
        this.timer = timer;
    }

    @Override
    public Mono<String> take(int length) {
        return redis.commands()
                .flatMap(commands -> commands.sets().spop(prefix + length))
                .map(bytes -> new String(bytes, StandardCharsets.US_ASCII))
                .timeout(timeout, timer);
    }

    /** One {@code SPOP key count}: a group of creates costs one round trip, not one a code. */
    @Override
    public Flux<String> take(int length, int count) {
        return redis.commands()
                .flatMapMany(commands -> commands.sets().spop(prefix + length, count))
                .map(bytes -> new String(bytes, StandardCharsets.US_ASCII))
                .timeout(timeout, timer);
    }

    @Override
    public Mono<Long> size(int length) {
        return redis.commands()
                .flatMap(commands -> commands.sets().scard(prefix + length))
                .timeout(timeout, timer);
    }

    @Override
    public Mono<Void> add(int length, Collection<String> codes) {
        if (codes.isEmpty()) {
            return Mono.empty();
        }
        byte[][] members = codes.stream()
                .map(code -> code.getBytes(StandardCharsets.US_ASCII))
                .toArray(byte[][]::new);
        return redis.commands()
                .flatMap(commands -> commands.sets().sadd(prefix + length, members))
                .timeout(timeout.multipliedBy(10), timer)
                .then();
    }
}
