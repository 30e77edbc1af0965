package dev.shortgate.redirect;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.LinkRepository;
import dev.shortgate.system.BlockingDrivers;
import dev.shortgate.system.RedisConfigured;
import dev.shortgate.system.SharedRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires the redirect path: {@code NearCache → RedisTier → LinkRepository}. Whether there is a shared Redis tier
 * is decided here, once: {@link RedisLinks} when Redis is configured, {@link RedisTier#NONE} otherwise.
 */
@Configuration(proxyBeanMethods = false)
class RedirectConfiguration {

    /** Fires the near cache's load deadlines: a thread of its own, so no other work can hold a deadline up. */
    private static final Scheduler DEADLINES = Schedulers.newSingle("shortgate-lookup-deadlines", true);

    @Bean
    NearCache nearCache(RedirectProperties properties, Ticker ticker, MeterRegistry registry) {
        return new NearCache(properties.nearCache(), ticker, DEADLINES, registry);
    }

    @Bean
    @RedisConfigured
    RedisLinks redisTier(SharedRedis redis, ReactiveStringRedisTemplate pubSub, RedirectProperties properties,
                         JsonMapper json, Ticker ticker, MeterRegistry registry) {
        return new RedisLinks(redis, pubSub, properties.redis(), json, ticker, registry);
    }

    @Bean
    @Conditional(RedisConfigured.Absent.class)
    RedisTier noRedisTier() {
        return RedisTier.NONE;
    }

    @Bean
    TieredLinkLookup linkLookup(NearCache near, RedisTier redis, LinkRepository database,
                                ConnectionFactory connectionFactory, RedirectProperties properties,
                                MeterRegistry registry) {
        return new TieredLinkLookup(near, redis, database, BlockingDrivers.schedulerFor(connectionFactory),
                properties.dbTimeout(), registry);
    }

    @Bean
    CacheInvalidator cacheInvalidator(NearCache near, RedisTier redis, RedirectProperties properties,
                                      MeterRegistry registry) {
        return new CacheInvalidator(near, redis, properties, registry);
    }
}
