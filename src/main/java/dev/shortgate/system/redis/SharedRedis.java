package dev.shortgate.system.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.reactive.BaseRedisReactiveCommands;
import io.lettuce.core.api.reactive.RedisKeyReactiveCommands;
import io.lettuce.core.api.reactive.RedisScriptingReactiveCommands;
import io.lettuce.core.api.reactive.RedisSetReactiveCommands;
import io.lettuce.core.api.reactive.RedisSortedSetReactiveCommands;
import io.lettuce.core.api.reactive.RedisStringReactiveCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * The one Lettuce connection (string keys, byte values) that Shortgate's own Redis calls share, standalone or
 * Cluster, made from the same client Spring configured from {@code spring.data.redis.*}.
 *
 * <p>It is opened in the background at startup and never on a request: Lettuce opens connections with a
 * blocking call, and Spring's reactive template makes that call while a request subscribes, before any
 * {@code timeout()} downstream is armed, so on a Redis that accepts connections but does not answer a request
 * waited for the whole handshake on its event loop. Until the connection is up, {@link #commands()} fails at
 * once and callers fall through to the database; once it is up, Lettuce reconnects it by itself and, while
 * disconnected, rejects commands rather than queueing them.
 */
@Component
@RedisConfigured
public final class SharedRedis implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SharedRedis.class);
    private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(2);

    private final LettuceConnectionFactory factory;
    private volatile StatefulConnection<String, byte[]> connection;
    private volatile Commands commands;
    private volatile Disposable connecting;

    SharedRedis(LettuceConnectionFactory factory) {
        this.factory = factory;
    }

    /** The Redis commands Shortgate uses, on the shared connection. */
    public record Commands(
            RedisStringReactiveCommands<String, byte[]> strings,
            RedisKeyReactiveCommands<String, byte[]> keys,
            RedisSetReactiveCommands<String, byte[]> sets,
            RedisSortedSetReactiveCommands<String, byte[]> sortedSets,
            RedisScriptingReactiveCommands<String, byte[]> scripts,
            BaseRedisReactiveCommands<String, byte[]> server) {}

    /** The commands, or an error at once while the connection has not been opened yet. */
    public Mono<Commands> commands() {
        Commands current = commands;
        return current != null ? Mono.just(current) : Mono.error(NotConnected.INSTANCE);
    }

    /**
     * Publishes these messages, {@code messages.get(i)} on {@code channels.get(i)}, written to the connection together
     * (one flush for all, where each reactive command flushes on its own): a batch of events. Each future completes
     * with the number of receivers, or fails; a caller bounds the wait. Fails at once while the connection is not
     * open.
     */
    public List<CompletableFuture<Long>> publishAll(List<String> channels, List<byte[]> messages) {
        StatefulConnection<String, byte[]> open = connection;
        if (open == null || commands == null) {
            throw NotConnected.INSTANCE;
        }
        List<AsyncCommand<String, byte[], Long>> publishes = new ArrayList<>(channels.size());
        for (int i = 0; i < channels.size(); i++) {
            publishes.add(new AsyncCommand<>(new Command<>(
                    CommandType.PUBLISH,
                    new IntegerOutput<>(CODEC),
                    new CommandArgs<>(CODEC).addKey(channels.get(i)).addValue(messages.get(i)))));
        }
        open.dispatch(publishes);
        return List.copyOf(publishes);
    }

    /** Whether the connection has been opened (it may be reconnecting now). */
    public boolean opened() {
        return commands != null;
    }

    /**
     * Opens the connection off every request thread, retrying with backoff until it opens; waits a moment for it,
     * so the first requests after startup already find Redis (a create's announcement no longer times out on a
     * cold connection).
     */
    @Override
    public void start() {
        CountDownLatch opened = new CountDownLatch(1);
        connecting = Mono.fromCallable(this::connect)
                .subscribeOn(Schedulers.boundedElastic())
                .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200))
                        .maxBackoff(Duration.ofSeconds(10))
                        .doBeforeRetry(signal -> log.warn(
                                "Could not connect to Redis, retrying: {}",
                                signal.failure().toString())))
                .subscribe(made -> {
                    connection = made;
                    commands = commandsOf(made);
                    log.info("Connected to Redis");
                    opened.countDown();
                });
        try {
            if (!opened.await(STARTUP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Redis is not reachable yet; serving from the near cache and the database meanwhile");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private StatefulConnection<String, byte[]> connect() {
        AbstractRedisClient client = factory.getRequiredNativeClient();
        return client instanceof RedisClusterClient cluster
                ? cluster.connect(CODEC)
                : ((RedisClient) client).connect(CODEC);
    }

    private static Commands commandsOf(StatefulConnection<String, byte[]> connection) {
        if (connection instanceof StatefulRedisClusterConnection<String, byte[]> cluster) {
            var c = cluster.reactive();
            return new Commands(c, c, c, c, c, c);
        }
        var c = ((StatefulRedisConnection<String, byte[]>) connection).reactive();
        return new Commands(c, c, c, c, c, c);
    }

    @Override
    public void stop() {
        Disposable attempt = connecting;
        if (attempt != null) {
            attempt.dispose();
        }
        StatefulConnection<String, byte[]> open = connection;
        commands = null;
        connection = null;
        if (open != null) {
            open.closeAsync();
        }
    }

    @Override
    public boolean isRunning() {
        Disposable attempt = connecting;
        return attempt != null && !attempt.isDisposed() || connection != null;
    }

    /** Before the web server starts (so the wait above happens first) and stops after it has drained. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 8192;
    }

    /** Redis has not been reached since startup; callers treat it as any other Redis failure. */
    public static final class NotConnected extends RuntimeException {
        static final NotConnected INSTANCE = new NotConnected();

        private NotConnected() {
            super("Redis connection not opened yet", null, false, false);
        }
    }
}
