package dev.shortgate.redirect;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.shortgate.redirect.LinkLookup.Found;
import dev.shortgate.redirect.Redirects.Reply;
import dev.shortgate.security.ClientIpResolver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The fast path: {@code GET} and {@code HEAD} of {@code /{code}} answered in the Netty pipeline of the traffic port,
 * ahead of Reactor Netty's HTTP handling and Spring's dispatcher. A near-cache hit is answered at once, on the event
 * loop, from headers built once per cached link; a miss is looked up through the tiers and answered when the lookup
 * completes, without the per-request machinery of the general stack. Both answer as {@link Redirects} decides, the
 * same decision the general route renders.
 *
 * <p>Whatever does not look like a plain redirect request is handed on untouched to the general stack: another path
 * or method, a percent-encoded or over-long code, a request with a body or {@code Expect}, and every request on a
 * connection while the general stack is still answering an earlier one there. Requests that arrive on a connection
 * while one is being looked up here wait their turn, so pipelined answers keep their order. One handler per
 * connection, on that connection's event loop.
 *
 * <p>It also drains the traffic port on shutdown ({@link #drain(Duration)}), ahead of the web server's own graceful
 * shutdown, which would close every connection that has no request in Reactor Netty's hands at once, including one
 * whose request was just sent or is being looked up here. Draining stops accepting connections, answers the next
 * request of each open one (on either path) with {@code Connection: close} and closes it after the answer, lets
 * lookups in flight finish, and closes what is still idle when the drain time is up. Every request a client got an
 * answer to was answered before recording closes, so its visit is written.
 */
final class FastRedirects {

    private static final Logger log = LoggerFactory.getLogger(FastRedirects.class);
    private static final int MAX_CODE_LENGTH = 64;
    private static final Duration DRAIN_POLL = Duration.ofMillis(20);
    /** While draining, a connection with nothing in flight that has been quiet this long is closed. */
    static final long DRAIN_IDLE_NANOS = Duration.ofMillis(500).toNanos();

    private final NearCache near;
    private final Redirects redirects;
    private final RedirectMetrics metrics;
    private final ClientIpResolver clientIps;
    private final Counter answered;
    private final boolean fastPath;
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
            MeterRegistry registry,
            boolean fastPath) {
        this.fastPath = fastPath;
        this.near = near;
        this.redirects = redirects;
        this.metrics = metrics;
        this.clientIps = clientIps;
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
    Connection newConnection() {
        return new Connection();
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
    private enum Drain {
        INSTANCE
    }

    /** Traffic connections open now. */
    int openConnections() {
        return connections.size();
    }

    /**
     * Where the path is {@code /} and a syntactically valid code, optionally followed by a query: the index just
     * after the code; otherwise -1 (the general stack decides what such a request gets).
     */
    static int codeEnd(String uri) {
        int length = uri.length();
        if (length < 2 || uri.charAt(0) != '/') {
            return -1;
        }
        int i = 1;
        while (i < length && i <= MAX_CODE_LENGTH) {
            char c = uri.charAt(i);
            if (c == '?') {
                break;
            }
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
                return -1;
            }
            i++;
        }
        return i > 1 && (i == length || uri.charAt(i) == '?') ? i : -1;
    }

    /** One connection's state: who is answering its current request, and what waits behind it. */
    final class Connection extends ChannelDuplexHandler {

        private int handedOn; // requests given to the general stack and not yet answered by it
        private boolean lookingUp; // a request of this connection is being looked up here
        private boolean discarding; // the rest of a request taken here (its empty last content) is skipped
        private boolean flushPending;
        private final ArrayDeque<Object> waiting = new ArrayDeque<>(2); // read while a lookup was in flight
        private InetAddress peer;
        private InetAddress client; // the peer, when no trusted proxy stands in front of it
        private boolean peerTrusted;
        private long lastActive = System.nanoTime(); // when a request last arrived or was answered
        private ScheduledFuture<?> drainCheck;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            connections.add(ctx.channel());
            if (listener == null && ctx.channel().parent() != null) {
                listener = ctx.channel().parent();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event != Drain.INSTANCE) {
                super.userEventTriggered(ctx, event);
                return;
            }
            long period = DRAIN_POLL.toNanos();
            drainCheck = ctx.executor()
                    .scheduleAtFixedRate(
                            () -> {
                                if (handedOn == 0
                                        && !lookingUp
                                        && waiting.isEmpty()
                                        && System.nanoTime() - lastActive > DRAIN_IDLE_NANOS) {
                                    ctx.close();
                                }
                            },
                            period,
                            period,
                            TimeUnit.NANOSECONDS);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            lastActive = System.nanoTime();
            if (lookingUp) {
                waiting.add(msg);
                return;
            }
            if (discarding) {
                if (msg instanceof HttpContent) {
                    discarding = !(msg instanceof LastHttpContent);
                    ReferenceCountUtil.release(msg);
                    return;
                }
                discarding = false;
            }
            if (msg instanceof HttpRequest request) {
                if (handedOn == 0 && take(ctx, request)) {
                    discarding = !(msg instanceof LastHttpContent);
                    ReferenceCountUtil.release(msg);
                    return;
                }
                handedOn++;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (flushPending) {
                flushPending = false;
                ctx.flush();
                readOn(ctx);
            }
            ctx.fireChannelReadComplete();
        }

        /**
         * Reactor Netty reads on demand (auto-read off) and asks for more only after answering a request itself;
         * after one answered here, the next must be asked for here, or the connection stops reading.
         */
        private void readOn(ChannelHandlerContext ctx) {
            if (handedOn == 0 && !lookingUp && !ctx.channel().config().isAutoRead()) {
                ctx.read();
            }
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            boolean informational = msg instanceof HttpResponse response
                    && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
            if (draining && handedOn > 0 && msg instanceof HttpResponse response && !informational) {
                HttpUtil.setKeepAlive(response, false); // the general stack's answer while draining
            }
            if (msg instanceof LastHttpContent && handedOn > 0 && !informational) {
                lastActive = System.nanoTime();
                handedOn--; // the general stack finished a response
                if (draining && handedOn == 0 && !lookingUp) {
                    ChannelPromise written = promise.unvoid();
                    ctx.write(msg, written);
                    written.addListener(ChannelFutureListener.CLOSE);
                    return;
                }
            }
            ctx.write(msg, promise);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            if (drainCheck != null) {
                drainCheck.cancel(false);
            }
            releaseWaiting();
            super.channelInactive(ctx);
        }

        /** Takes the request if it is a plain redirect request: answers it now, or starts looking it up. */
        private boolean take(ChannelHandlerContext ctx, HttpRequest request) {
            if (!fastPath) {
                return false;
            }
            HttpMethod method = request.method();
            boolean get = HttpMethod.GET.equals(method);
            if (!get && !HttpMethod.HEAD.equals(method)
                    || !request.decoderResult().isSuccess()) {
                return false;
            }
            HttpHeaders headers = request.headers();
            if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
                    || headers.contains(HttpHeaderNames.EXPECT)
                    || HttpUtil.getContentLength(request, 0L) != 0) {
                return false;
            }
            String uri = request.uri();
            int end = codeEnd(uri);
            if (end < 0) {
                return false;
            }
            Redirects.Request redirect = new Redirects.Request(
                    uri.substring(1, end),
                    get,
                    end < uri.length() ? uri.substring(end + 1) : null,
                    clientIp(ctx, headers),
                    headers.get(HttpHeaderNames.USER_AGENT),
                    headers.get(HttpHeaderNames.REFERER));
            Found found = near.getIfReady(redirect.code());
            Reply reply = found == null ? null : redirects.answer(redirect, found, Tier.NEAR, metrics.start());
            if (reply != null) {
                respond(ctx, request, reply);
                flushPending = true;
                return true;
            }
            // Not in the near cache (or a capped link whose count must be read): look it up, answer when done.
            HttpVersion version = request.protocolVersion();
            boolean keepAlive = HttpUtil.isKeepAlive(request) && !draining;
            lookingUp = true;
            redirects
                    .answer(redirect)
                    .subscribe(
                            done -> ctx.executor().execute(() -> answered(ctx, version, keepAlive, done)),
                            error -> ctx.executor()
                                    .execute(ctx::close)); // never expected: the decision answers every error
            return true;
        }

        /** The lookup is done: answer, then go on with what arrived meanwhile, in order. */
        private void answered(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, Reply done) {
            lookingUp = false;
            if (!ctx.channel().isActive()) {
                releaseWaiting();
                return;
            }
            respond(ctx, version, keepAlive, done);
            ctx.flush();
            while (!lookingUp && !waiting.isEmpty()) {
                channelRead(ctx, waiting.poll());
            }
            if (flushPending) {
                flushPending = false;
                ctx.flush();
            }
            readOn(ctx);
        }

        private void respond(ChannelHandlerContext ctx, HttpRequest request, Reply reply) {
            respond(ctx, request.protocolVersion(), HttpUtil.isKeepAlive(request), reply);
        }

        private void respond(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, Reply reply) {
            answered.increment();
            lastActive = System.nanoTime();
            keepAlive = keepAlive && !draining;
            HttpHeaders headers = reply.headers();
            if (!keepAlive || !version.isKeepAliveDefault()) {
                headers = new DefaultHttpHeaders()
                        .add(headers)
                        .set(
                                HttpHeaderNames.CONNECTION,
                                keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
            }
            var response = new DefaultFullHttpResponse(
                    version,
                    reply.status(),
                    reply.body() == null ? Unpooled.EMPTY_BUFFER : reply.body().content(),
                    headers,
                    EmptyHttpHeaders.INSTANCE);
            if (keepAlive) {
                ctx.write(response, ctx.voidPromise());
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        private void releaseWaiting() {
            Object msg;
            while ((msg = waiting.poll()) != null) {
                ReferenceCountUtil.release(msg);
            }
        }

        /** The client's address: the peer, or (behind a trusted proxy) what the proxy says it is. */
        private InetAddress clientIp(ChannelHandlerContext ctx, HttpHeaders headers) {
            if (peer == null) {
                SocketAddress remote = ctx.channel().remoteAddress();
                peer = remote instanceof InetSocketAddress address ? address.getAddress() : null;
                if (peer == null) {
                    return null;
                }
                peerTrusted = clientIps.isTrusted(peer);
                client = clientIps.resolve(peer, List.of());
            }
            return peerTrusted ? clientIps.resolve(peer, headers.getAll("X-Forwarded-For")) : client;
        }
    }
}
