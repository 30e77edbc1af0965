/**
 * The one Lettuce connection Shortgate's own Redis calls share ({@link dev.shortgate.system.redis.SharedRedis}), and
 * the condition every bean of the Redis tier carries ({@link dev.shortgate.system.redis.RedisConfigured}).
 */
@NamedInterface("redis")
package dev.shortgate.system.redis;

import org.springframework.modulith.NamedInterface;
