package dev.shortgate.redirect;

import java.time.Clock;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.redirect.guard.BloomShape;
import dev.shortgate.redirect.guard.LocalCodeGuard;
import dev.shortgate.redirect.guard.RedisCodeGuard;
import dev.shortgate.redirect.guard.UnknownCodeGuard;
import dev.shortgate.redirect.invalidation.CacheInvalidator;
import dev.shortgate.redirect.invalidation.InvalidationBus;
import dev.shortgate.redirect.invalidation.RedisInvalidationBus;
import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.redirect.lookup.RedisLinks;
import dev.shortgate.redirect.lookup.RedisTier;
import dev.shortgate.redirect.lookup.TieredLinkLookup;
import dev.shortgate.system.database.DatabaseDialect;
import dev.shortgate.system.redis.RedisConfigured;
import dev.shortgate.system.redis.SharedRedis;
import dev.shortgate.system.web.ApiProperties;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires the redirect path: {@code NearCache → RedisTier → UnknownCodeGuard → database}. Whether the tiers are shared
 * is decided here, once, by which of the two nested configurations applies: {@link SharedTiers} when Redis is
 * configured ({@link RedisLinks}, {@link RedisInvalidationBus}, {@link RedisCodeGuard}), {@link PodTiers} otherwise
 * ({@link RedisTier#NONE}, {@link InvalidationBus#LOCAL}, {@link LocalCodeGuard}). The classes that use them never ask.
 */
@Configuration(proxyBeanMethods = false)
class RedirectConfiguration {

    /** Fires the lookups' deadlines and Redis timeouts: a thread of its own, so no other work can hold one up. */
    private static final Scheduler DEADLINES = Schedulers.newSingle("shortgate-lookup-deadlines", true);

    @Bean
    NearCache nearCache(RedirectProperties properties, Ticker ticker, MeterRegistry registry) {
        return new NearCache(properties.nearCache(), ticker, DEADLINES, registry);
    }

    @Bean
    TieredLinkLookup linkLookup(
            NearCache near,
            RedisTier redis,
            UnknownCodeGuard guard,
            LinkRepository database,
            DatabaseDialect dialect,
            RedirectProperties properties,
            MeterRegistry registry) {
        return new TieredLinkLookup(
                near,
                redis,
                guard,
                properties.guard(),
                database::findByCode,
                dialect.queryScheduler(),
                properties.dbTimeout(),
                properties.maxDbLookups(),
                properties.redis().hedgeAfter(),
                DEADLINES,
                registry);
    }

    @Bean
    CacheInvalidator cacheInvalidator(
            NearCache near,
            RedisTier redis,
            InvalidationBus bus,
            UnknownCodeGuard guard,
            LinkRepository database,
            RedirectProperties properties,
            ApiProperties api,
            MeterRegistry registry) {
        return new CacheInvalidator(
                near, redis, bus, guard, database::findByCodes, properties, api.announceWait(), DEADLINES, registry);
    }

    /** With Redis: the link tier, the invalidation channel and the unknown-code guard are shared by every pod. */
    @Configuration(proxyBeanMethods = false)
    @RedisConfigured
    static class SharedTiers {

        /** The lookups' calls, breaker {@code redis}: what the redirect path waits for. */
        @Bean
        @Primary
        RedisCalls redisCalls(SharedRedis redis, RedirectProperties properties, Ticker ticker, MeterRegistry registry) {
            return new RedisCalls(
                    "redis",
                    redis,
                    properties.redis().timeout(),
                    properties.redis().queueingLimit(),
                    ticker,
                    DEADLINES,
                    registry);
        }

        /** The writes' calls, breaker {@code redis-writes}: what creates and changes write, bounded on their own. */
        @Bean
        RedisCalls redisWrites(RedisCalls redisCalls, RedirectProperties properties, MeterRegistry registry) {
            RedirectProperties.Redis.Writes writes = properties.redis().writes();
            return new RedisCalls("redis-writes", redisCalls, writes.timeout(), writes.deadline(), DEADLINES, registry);
        }

        @Bean(destroyMethod = "dispose")
        Disposable redisHeartbeat(RedisCalls redisCalls, RedirectProperties properties) {
            return redisCalls.heartbeat(properties.redis().queueingLimit());
        }

        @Bean(destroyMethod = "dispose")
        Disposable redisWritesHeartbeat(@Qualifier("redisWrites") RedisCalls writes, RedirectProperties properties) {
            return writes.heartbeat(properties.redis().writes().deadline());
        }

        @Bean
        RedisLinks redisTier(
                RedisCalls redisCalls,
                @Qualifier("redisWrites") RedisCalls writes,
                RedirectProperties properties,
                JsonMapper json,
                MeterRegistry registry) {
            return new RedisLinks(redisCalls, writes, properties.redis(), json, registry);
        }

        @Bean
        RedisInvalidationBus invalidationBus(
                @Qualifier("redisWrites") RedisCalls writes,
                ReactiveRedisConnectionFactory connections,
                RedirectProperties properties) {
            return new RedisInvalidationBus(writes, connections, properties.redis(), DEADLINES);
        }

        @Bean
        UnknownCodeGuard sharedCodeGuard(
                RedisCalls redisCalls,
                @Qualifier("redisWrites") RedisCalls writes,
                LinkRepository links,
                RedirectProperties properties,
                Ticker ticker) {
            RedirectProperties.Guard guard = properties.guard();
            return !guard.enabled()
                    ? UnknownCodeGuard.OFF
                    : new RedisCodeGuard(
                            redisCalls,
                            writes,
                            links,
                            BloomShape.of(guard.expectedLinks(), guard.falsePositiveRate()),
                            properties.redis().keyPrefix(),
                            ticker);
        }
    }

    /** Without Redis: no shared tier, no one else to tell, and a guard of this pod's own. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(RedisConfigured.Absent.class)
    static class PodTiers {

        @Bean
        RedisTier noRedisTier() {
            return RedisTier.NONE;
        }

        @Bean
        InvalidationBus localInvalidations() {
            return InvalidationBus.LOCAL;
        }

        @Bean
        UnknownCodeGuard localCodeGuard(LinkRepository links, RedirectProperties properties, Clock clock) {
            RedirectProperties.Guard guard = properties.guard();
            return !guard.enabled()
                    ? UnknownCodeGuard.OFF
                    : new LocalCodeGuard(
                            links,
                            guard.expectedLinks(),
                            guard.falsePositiveRate(),
                            guard.refresh(),
                            clock,
                            Schedulers.parallel());
        }
    }
}
