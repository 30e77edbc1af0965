package dev.shortgate.redirect.http;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;

import dev.shortgate.domain.Domains;
import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.security.ClientIpResolver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The fast path: {@code GET} and {@code HEAD} of {@code /{code}} answered in the Netty pipeline of the traffic port,
 * ahead of Reactor Netty's HTTP handling and Spring's dispatcher. A near-cache hit is answered at once, on the event
 * loop, from headers built once per cached link; a miss is looked up through the tiers and answered when the lookup
 * completes, without the per-request machinery of the general stack. Both answer as {@link Redirects} decides, the
 * same decision the general route renders. Each traffic connection gets its own {@link TrafficConnection}, which
 * takes what {@link FastHttp} calls a plain redirect request and hands everything else on to the general stack.
 *
 * <p>This class holds what the connections share and the traffic port's lifecycle: which port it is, the open
 * connections, and their drain on shutdown ({@link #drain(Duration)}), ahead of the web server's own graceful
 * shutdown, which would close every connection that has no request in Reactor Netty's hands at once, including one
 * whose request was just sent or is being looked up here. Draining stops accepting connections, answers the next
 * request of each open one (on either path) with {@code Connection: close} and closes it after the answer, lets
 * lookups in flight finish, and closes what is still idle when the drain time is up. Every request a client got an
 * answer to was answered before recording closes, so its visit is written.
 */
final class FastRedirects {

    private static final Logger log = LoggerFactory.getLogger(FastRedirects.class);
    /** How often a drain looks at what is still open: here for all connections, and on each connection's loop. */
    static final Duration DRAIN_POLL = Duration.ofMillis(20);
    /** While draining, a connection with nothing in flight that has been quiet this long is closed. */
    static final long DRAIN_IDLE_NANOS = Duration.ofMillis(500).toNanos();

    // What each TrafficConnection answers with; shared by all of them.
    final NearCache near;
    final Redirects redirects;
    final RedirectMetrics metrics;
    final ClientIpResolver clientIps;
    final Domains domains;
    final Counter answered;
    final boolean fastPath;

    private final ChannelGroup connections = new DefaultChannelGroup("shortgate-traffic", GlobalEventExecutor.INSTANCE);
    private volatile int port = -1; // the traffic port, once the server has bound it; the management port is not served
    private volatile Channel listener; // the traffic port's server channel
    private volatile boolean draining;

    /** With {@code fastPath} off every request goes to the general stack; the connections are still drained. */
    FastRedirects(
            NearCache near,
            Redirects redirects,
            RedirectMetrics metrics,
            ClientIpResolver clientIps,
            Domains domains,
            MeterRegistry registry,
            boolean fastPath) {
        this.fastPath = fastPath;
        this.near = near;
        this.redirects = redirects;
        this.metrics = metrics;
        this.clientIps = clientIps;
        this.domains = domains;
        this.answered = Counter.builder("shortgate.redirect.fast")
                .description("Redirect requests answered on the fast path, below Spring's dispatcher")
                .register(registry);
    }

    /** The traffic server is listening on this port: connections to it get the fast path. */
    void serve(int port) {
        this.port = port;
    }

    /** Whether a connection to this local address is a traffic connection. */
    boolean serves(SocketAddress local) {
        return local instanceof InetSocketAddress address && address.getPort() == port;
    }

    /** A handler for one new connection. */
    TrafficConnection newConnection() {
        return new TrafficConnection(this);
    }

    /** A traffic connection has opened: it is drained with the others, and its parent is the traffic port. */
    void opened(Channel channel) {
        connections.add(channel);
        if (listener == null && channel.parent() != null) {
            listener = channel.parent();
        }
    }

    /** Whether the drain has begun: every answer from now on closes its connection. */
    boolean draining() {
        return draining;
    }

    /**
     * Drains the traffic port: stops accepting, answers each open connection's next request with
     * {@code Connection: close} and closes it after, and after {@code timeout} closes what is left (connections
     * that stayed idle). Completes when no traffic connection is open.
     */
    Mono<Void> drain(Duration timeout) {
        return Mono.defer(() -> {
            draining = true;
            Channel server = listener;
            Mono<Void> closed = server == null
                    ? Mono.empty()
                    : Mono.<Void>create(sink -> server.close().addListener(done -> sink.success()))
                            .timeout(timeout, Mono.empty());
            return closed.then(Mono.defer(() -> drainOpen(timeout)));
        });
    }

    /** Answers each open connection's next request with close, then closes what stayed idle after {@code timeout}. */
    private Mono<Void> drainOpen(Duration timeout) {
        return Mono.defer(() -> {
            int open = connections.size();
            if (open == 0) {
                return Mono.empty();
            }
            log.info("Draining {} open traffic connections for up to {}", open, timeout);
            for (Channel channel : connections) { // each closes once answered, or once quiet while idle
                channel.pipeline().fireUserEventTriggered(Drain.INSTANCE);
            }
            return Flux.interval(DRAIN_POLL)
                    .takeUntil(tick -> connections.isEmpty())
                    .then()
                    .timeout(timeout, Mono.defer(() -> {
                        log.info("Closing {} traffic connections still idle after the drain", connections.size());
                        return Mono.create(closed -> connections.close().addListener(done -> closed.success()));
                    }));
        });
    }

    /** The event that tells a connection the drain has begun. */
    enum Drain {
        INSTANCE
    }

    /** Traffic connections open now. */
    int openConnections() {
        return connections.size();
    }
}
