package dev.shortgate.system.redis;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Beans of the Redis tier exist only when Redis is configured: {@code spring.data.redis.url}
 * ({@code SPRING_DATA_REDIS_URL}), a host, or Cluster nodes. Without it Shortgate runs as a single node.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(RedisConfigured.OnRedis.class)
public @interface RedisConfigured {

    final class OnRedis implements Condition {

        public static boolean isConfigured(Environment environment) {
            return StringUtils.hasText(environment.getProperty("spring.data.redis.url"))
                    || StringUtils.hasText(environment.getProperty("spring.data.redis.host"))
                    || isCluster(environment);
        }

        /** Whether the Redis configured is a Cluster ({@code spring.data.redis.cluster.nodes}). */
        public static boolean isCluster(Environment environment) {
            return StringUtils.hasText(environment.getProperty("spring.data.redis.cluster.nodes"))
                    || StringUtils.hasText(environment.getProperty("spring.data.redis.cluster.nodes[0]"));
        }

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return isConfigured(context.getEnvironment());
        }
    }

    /** The opposite: beans that stand in for the Redis tier's when no Redis is configured. */
    final class Absent implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return !OnRedis.isConfigured(context.getEnvironment());
        }
    }
}
