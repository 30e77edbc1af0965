package dev.shortgate.system.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.NettyCustomizer;
import io.lettuce.core.tracing.Tracing;
import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/** How the Lettuce client behind every Redis call is set up, when Redis is configured. */
@Configuration(proxyBeanMethods = false)
@RedisConfigured
class RedisClientConfiguration {

    /** Fail commands at once while disconnected, instead of queueing them behind a reconnect. */
    @Bean
    LettuceClientOptionsBuilderCustomizer rejectWhileDisconnected() {
        return builder -> builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
    }

    /**
     * TCP keepalive on every Redis connection (a probe after 10 s of silence, then every 2 s, dead after 3 unanswered)
     * and a TCP user timeout of 15 s for data Redis does not acknowledge. A subscribed connection sends nothing, so
     * without them a connection cut by a silent network partition stayed open on this side for good (the network
     * fault N3): Lettuce never noticed, and never reconnected. Spring Boot's connect timeout is kept.
     */
    @Bean
    LettuceClientOptionsBuilderCustomizer keepAlive(Environment environment) {
        Duration connectTimeout = Binder.get(environment)
                .bind("spring.data.redis.connect-timeout", Duration.class)
                .orElse(SocketOptions.DEFAULT_CONNECT_TIMEOUT_DURATION);
        return builder -> builder.socketOptions(SocketOptions.builder()
                .connectTimeout(connectTimeout)
                .keepAlive(SocketOptions.KeepAliveOptions.builder()
                        .enable()
                        .idle(Duration.ofSeconds(10))
                        .interval(Duration.ofSeconds(2))
                        .count(3)
                        .build())
                .tcpUserTimeout(SocketOptions.TcpUserTimeoutOptions.builder()
                        .enable()
                        .tcpUserTimeout(Duration.ofSeconds(15))
                        .build())
                .build());
    }

    /**
     * No per-command latency histograms or observations: they cost more than the GET they time on the redirect
     * path. Shortgate counts its Redis lookups and errors itself ({@code shortgate.lookups}, {@code shortgate.redis.errors}).
     * Applied last, after Spring Boot's own customizers.
     */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    ClientResourcesBuilderCustomizer noPerCommandMetrics() {
        return builder -> builder.commandLatencyRecorder(CommandLatencyRecorder.disabled())
                .tracing(Tracing.disabled());
    }

    /**
     * Writes queued on a Redis connection go out together: Lettuce flushes after every command, and a flush is a
     * {@code send} system call. A group of creates announces its links as 200 {@code SET}s and 200 {@code PUBLISH}es,
     * made on other threads and each queued to the connection's event loop as a task of its own; with a flush each,
     * a wall-clock profile of a 50,000-link batch seed under CPU load had the event loop in {@code send} for about
     * 3 s, and commands behind those waited past Lettuce's 500 ms timeout. Netty's {@link FlushConsolidationHandler}
     * turns the flushes of the tasks queued together into one write (at most 256 commands each); a lone command is
     * flushed by the task right behind its own, on the same loop turn.
     */
    @Bean
    ClientResourcesBuilderCustomizer consolidatedFlushes() {
        return builder -> builder.nettyCustomizer(new NettyCustomizer() {
            @Override
            public void afterChannelInitialized(Channel channel) {
                channel.pipeline().addFirst(new FlushConsolidationHandler(256, true));
            }
        });
    }

    /**
     * Reconnect attempts back off from 100 ms to at most 1 s (Lettuce's default grows to 30 s), so a restarted Redis
     * is used again within about a second plus the breaker's wait; an attempt on loopback or in a cluster network
     * costs next to nothing.
     */
    @Bean
    ClientResourcesBuilderCustomizer quickReconnect() {
        return builder -> builder.reconnectDelay(
                () -> Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS));
    }
}
