package dev.shortgate.codegen;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import dev.shortgate.codegen.pool.CodePool;
import dev.shortgate.codegen.pool.DatabaseCodePool;
import dev.shortgate.codegen.pool.PoolCandidates;
import dev.shortgate.codegen.pool.PoolFiller;
import dev.shortgate.codegen.pool.RedisCodePool;
import dev.shortgate.codegen.sequence.DatabaseSequenceStore;
import dev.shortgate.codegen.sequence.FeistelPermutation;
import dev.shortgate.codegen.sequence.SequenceBlocks;
import dev.shortgate.codegen.sequence.SequenceCandidates;
import dev.shortgate.system.database.ConflictRetry;
import dev.shortgate.system.redis.RedisConfigured;
import dev.shortgate.system.redis.SharedRedis;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Wires the configured strategy ({@code shortgate.codegen.strategy}). The {@code pool} strategy keeps its pool in
 * Redis when Redis is configured and in the database otherwise; the {@code sequence} strategy keeps its counters in
 * the database in both cases, because a Redis that lost its data would hand counter values out again.
 */
@Configuration(proxyBeanMethods = false)
class CodegenConfiguration {

    /** Fires codegen's timeouts: a thread of its own, which no stalled backend can hold up. */
    private static final Scheduler TIMER = Schedulers.newSingle("shortgate-codegen-timer", true);

    @Bean
    CodeStrategies codeStrategies(
            CodegenProperties properties,
            ObjectProvider<CodePool> pool,
            DatabaseClient db,
            ConflictRetry conflicts,
            Clock clock,
            MeterRegistry registry) {
        return switch (properties.strategy()) {
            case HASH -> CodeStrategies.hash(clock);
            case SEQUENCE -> {
                SequenceBlocks blocks = new SequenceBlocks(
                        new DatabaseSequenceStore(db, Duration.ofSeconds(5), TIMER, conflicts),
                        properties.sequence().blockSize());
                yield new CodeStrategies(
                        CodeStrategy.SEQUENCE, key -> new SequenceCandidates(blocks, new FeistelPermutation(key)));
            }
            case POOL -> {
                Counter misses = Counter.builder("shortgate.codegen.pool.misses")
                        .description("Creates that found no pooled code and used a fresh random one")
                        .register(registry);
                CodePool shared = pool.getObject();
                yield new CodeStrategies(CodeStrategy.POOL, key -> new PoolCandidates(shared, misses));
            }
        };
    }

    @Bean
    @RedisConfigured
    CodePool redisCodePool(
            CodegenProperties properties,
            SharedRedis redis,
            @Value("${shortgate.redirect.redis.key-prefix:sg:}") String keyPrefix) {
        return new RedisCodePool(redis, keyPrefix, properties.pool().timeout(), TIMER);
    }

    @Bean
    @Conditional(RedisConfigured.Absent.class)
    CodePool databaseCodePool(CodegenProperties properties, DatabaseClient db, ConflictRetry conflicts) {
        return new DatabaseCodePool(db, properties.pool().timeout(), TIMER, conflicts);
    }

    @Bean
    PoolFiller poolFiller(
            CodegenProperties properties, CodePool pool, ObjectProvider<TakenCodes> taken, MeterRegistry registry) {
        List<Integer> lengths =
                properties.strategy() == CodeStrategy.POOL ? List.of(properties.defaultLength()) : List.of();
        return new PoolFiller(
                pool,
                codes -> taken.getObject().taken(codes),
                properties.pool(),
                lengths,
                Schedulers.parallel(),
                registry);
    }
}
