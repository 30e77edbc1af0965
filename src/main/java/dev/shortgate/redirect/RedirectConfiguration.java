package dev.shortgate.redirect;

import java.time.Clock;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.LinkRepository;
import dev.shortgate.system.ApiProperties;
import dev.shortgate.system.BlockingDrivers;
import dev.shortgate.system.RedisConfigured;
import dev.shortgate.system.SharedRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires the redirect path: {@code NearCache → RedisTier → LinkRepository}. Whether there is a shared Redis tier
 * is decided here, once: {@link RedisLinks} when Redis is configured, {@link RedisTier#NONE} otherwise.
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
    @RedisConfigured
    RedisCalls redisCalls(SharedRedis redis, RedirectProperties properties, Ticker ticker, MeterRegistry registry) {
        return new RedisCalls(redis, properties.redis().timeout(), properties.redis().queueingLimit(), ticker, DEADLINES,
                registry);
    }

    @Bean(destroyMethod = "dispose")
    @RedisConfigured
    Disposable redisHeartbeat(RedisCalls redis, RedirectProperties properties) {
        return redis.heartbeat(properties.redis().queueingLimit());
    }

    @Bean
    @RedisConfigured
    RedisLinks redisTier(RedisCalls redis, ReactiveStringRedisTemplate pubSub, RedirectProperties properties,
                         JsonMapper json, MeterRegistry registry) {
        return new RedisLinks(redis, pubSub, properties.redis(), json, registry);
    }

    @Bean
    @Conditional(RedisConfigured.Absent.class)
    RedisTier noRedisTier() {
        return RedisTier.NONE;
    }

    /** The unknown-code guard: shared in Redis when Redis is configured, else this pod's own. */
    @Bean
    @RedisConfigured
    UnknownCodeGuard sharedCodeGuard(RedisCalls redis, LinkRepository links, RedirectProperties properties,
                                     Ticker ticker) {
        RedirectProperties.Guard guard = properties.guard();
        return !guard.enabled() ? UnknownCodeGuard.OFF : new RedisCodeGuard(redis, links,
                BloomShape.of(guard.expectedLinks(), guard.falsePositiveRate()), properties.redis().keyPrefix(), ticker);
    }

    @Bean
    @Conditional(RedisConfigured.Absent.class)
    UnknownCodeGuard localCodeGuard(LinkRepository links, RedirectProperties properties, Clock clock) {
        RedirectProperties.Guard guard = properties.guard();
        return !guard.enabled() ? UnknownCodeGuard.OFF : new LocalCodeGuard(links, guard.expectedLinks(),
                guard.falsePositiveRate(), guard.refresh(), clock, Schedulers.parallel());
    }

    @Bean
    TieredLinkLookup linkLookup(NearCache near, RedisTier redis, UnknownCodeGuard guard, LinkRepository database,
                                ConnectionFactory connectionFactory, RedirectProperties properties,
                                MeterRegistry registry) {
        return new TieredLinkLookup(near, redis, guard, properties.guard(), database,
                BlockingDrivers.schedulerFor(connectionFactory), properties.dbTimeout(), properties.maxDbLookups(),
                registry);
    }

    @Bean
    CacheInvalidator cacheInvalidator(NearCache near, RedisTier redis, UnknownCodeGuard guard,
                                      RedirectProperties properties, ApiProperties api, MeterRegistry registry) {
        return new CacheInvalidator(near, redis, guard, properties, api.announceWait(), DEADLINES, registry);
    }
}
