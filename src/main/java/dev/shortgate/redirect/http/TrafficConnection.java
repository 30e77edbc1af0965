package dev.shortgate.redirect.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.shortgate.redirect.http.Redirects.Reply;
import dev.shortgate.redirect.lookup.LinkLookup.Found;
import dev.shortgate.redirect.lookup.Tier;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * One traffic connection of the {@link FastRedirects fast path}, on that connection's event loop: who is answering
 * its current request, and what waits behind it. A plain redirect request ({@link FastHttp#codeEnd(HttpRequest)}) is
 * taken here: answered at once from the near cache, or looked up through the tiers and answered when the lookup
 * completes. Whatever else arrives is handed on untouched to the general stack, and so is every request on the
 * connection while the general stack is still answering an earlier one there. Requests that arrive while one is
 * being looked up here wait their turn, so pipelined answers keep their order. Once the drain has begun, the next
 * answer on either path says {@code Connection: close} and the connection closes after it, or closes once quiet.
 */
final class TrafficConnection extends ChannelDuplexHandler {

    private final FastRedirects server;
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
    private Scheduler loop; // this connection's event loop, where the answers of its lookups are decided

    TrafficConnection(FastRedirects server) {
        this.server = server;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        server.opened(ctx.channel());
        loop = Schedulers.fromExecutor(ctx.executor());
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event != FastRedirects.Drain.INSTANCE) {
            super.userEventTriggered(ctx, event);
            return;
        }
        long period = FastRedirects.DRAIN_POLL.toNanos();
        drainCheck = ctx.executor()
                .scheduleAtFixedRate(
                        () -> {
                            if (handedOn == 0
                                    && !lookingUp
                                    && waiting.isEmpty()
                                    && System.nanoTime() - lastActive > FastRedirects.DRAIN_IDLE_NANOS) {
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
        boolean informational =
                msg instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        if (server.draining() && handedOn > 0 && msg instanceof HttpResponse response && !informational) {
            HttpUtil.setKeepAlive(response, false); // the general stack's answer while draining
        }
        if (msg instanceof LastHttpContent && handedOn > 0 && !informational) {
            lastActive = System.nanoTime();
            handedOn--; // the general stack finished a response
            if (server.draining() && handedOn == 0 && !lookingUp) {
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
        if (!server.fastPath) {
            return false;
        }
        int end = FastHttp.codeEnd(request);
        if (end < 0) {
            return false;
        }
        String uri = request.uri();
        HttpHeaders headers = request.headers();
        String code = uri.substring(1, end);
        InetAddress clientIp = clientIp(ctx, headers);
        String host = null;
        if (!server.domains.onlyDefault()) {
            host = headers.get(HttpHeaderNames.HOST);
            if (peerTrusted) {
                host = RedirectHandler.forwardedHost(headers.get(RedirectHandler.FORWARDED_HOST), host);
            }
        }
        Redirects.Request redirect = new Redirects.Request(
                code,
                HttpMethod.GET.equals(request.method()),
                end < uri.length() ? uri.substring(end + 1) : null,
                clientIp,
                headers.get(HttpHeaderNames.USER_AGENT),
                headers.get(HttpHeaderNames.REFERER),
                headers.get(HttpHeaderNames.ACCEPT_LANGUAGE),
                server.domains.redirectKey(host, code));
        Found found = redirect.key() == null ? null : server.near.getIfReady(redirect.key());
        Reply reply =
                found == null ? null : server.redirects.answer(redirect, found, Tier.NEAR, server.metrics.start());
        if (reply != null) {
            respond(ctx, request.protocolVersion(), HttpUtil.isKeepAlive(request), reply);
            flushPending = true;
            return true;
        }
        // Not in the near cache (or a capped link whose count must be read): look it up, answer when done.
        HttpVersion version = request.protocolVersion();
        boolean keepAlive = HttpUtil.isKeepAlive(request) && !server.draining();
        lookingUp = true;
        server.redirects
                .answer(redirect, loop)
                .subscribe(
                        done -> {
                            if (ctx.executor().inEventLoop()) { // decided on this loop (never within this call)
                                answered(ctx, version, keepAlive, done);
                            } else {
                                ctx.executor().execute(() -> answered(ctx, version, keepAlive, done));
                            }
                        },
                        // never expected: the decision answers every error
                        error -> ctx.executor().execute(ctx::close));
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

    private void respond(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, Reply reply) {
        server.answered.increment();
        lastActive = System.nanoTime();
        keepAlive = keepAlive && !server.draining();
        FullHttpResponse response = FastHttp.response(version, keepAlive, reply);
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
            peerTrusted = server.clientIps.isTrusted(peer);
            client = server.clientIps.resolve(peer, List.of());
        }
        return peerTrusted ? server.clientIps.resolve(peer, headers.getAll("X-Forwarded-For")) : client;
    }
}
