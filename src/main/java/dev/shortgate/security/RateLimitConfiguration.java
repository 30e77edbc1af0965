package dev.shortgate.security;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.system.redis.RedisConfigured;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Where the shared rate-limit buckets live: in Redis when it is configured, nowhere (each pod its own) otherwise. */
@Configuration(proxyBeanMethods = false)
class RateLimitConfiguration {

    @Bean
    @RedisConfigured
    RedisBuckets redisBuckets(
            LettuceConnectionFactory redis,
            @Value("${shortgate.redirect.redis.key-prefix:sg:}") String keyPrefix,
            SecurityProperties properties,
            Ticker ticker,
            MeterRegistry registry) {
        SecurityProperties.RateLimit limits = properties.rateLimit();
        return new RedisBuckets(
                redis, keyPrefix + "rate:", limits.redisSlack(), limits.redisSyncInterval(), ticker, registry);
    }

    @Bean
    @Conditional(RedisConfigured.Absent.class)
    SharedBuckets podBuckets() {
        return SharedBuckets.NONE;
    }
}
