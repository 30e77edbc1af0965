package dev.shortgate.redirect;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Clock;
import java.util.List;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.LinkLookup.Found;
import dev.shortgate.redirect.RedirectMetrics.Outcome;
import dev.shortgate.security.ApiRateLimiter;
import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.system.ProblemException;
import dev.shortgate.visit.VisitCounts;
import dev.shortgate.visit.VisitRecorder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
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
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * The fast path: {@code GET} and {@code HEAD} of {@code /{code}} answered from a near-cache entry that is already
 * there, in the Netty pipeline ahead of Reactor Netty's HTTP handling and Spring's dispatcher. A hit costs a
 * cache lookup, the link's headers (built once per cached link, see {@link RedirectAnswer}), the visit hand-over
 * and a timer; none of the per-request machinery of the general stack.
 *
 * <p>It answers exactly as {@link RedirectHandler} does: the link's status and headers, query forwarding,
 * expired, capped, disabled and deleted links, unknown codes (404, and 429 past the client's unknown-code budget),
 * the same metrics (tier {@code near}), a visit for each GET that redirects and none for HEAD. Whatever it cannot
 * answer from memory alone it hands on untouched: a code not cached or still loading, a capped link whose visit
 * count is not at hand, any other path or method, a request with a body or {@code Expect}, and every request on a
 * connection while an earlier one is still being answered by the general stack, so pipelined answers keep their
 * order. One handler per connection, on that connection's event loop.
 */
final class FastRedirects {

    private static final int MAX_CODE_LENGTH = 64;

    private final NearCache near;
    private final RedirectAnswer.Factory answers;
    private final VisitRecorder visits;
    private final VisitCounts visitCounts;
    private final ClientIpResolver clientIps;
    private final ApiRateLimiter rateLimiter;
    private final Clock clock;
    private final RedirectMetrics metrics;
    private final Counter answered;
    private volatile int port = -1; // the traffic port, once the server has bound it; the management port is not served

    FastRedirects(NearCache near, RedirectAnswer.Factory answers, VisitRecorder visits, VisitCounts visitCounts,
                  ClientIpResolver clientIps, ApiRateLimiter rateLimiter, Clock clock, RedirectMetrics metrics,
                  MeterRegistry registry) {
        this.near = near;
        this.answers = answers;
        this.visits = visits;
        this.visitCounts = visitCounts;
        this.clientIps = clientIps;
        this.rateLimiter = rateLimiter;
        this.clock = clock;
        this.metrics = metrics;
        this.answered = Counter.builder("shortgate.redirect.fast")
                .description("Redirect requests answered on the fast path, from the near cache alone")
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

    /** One connection's state: whether the general stack is answering a request, and what to skip. */
    final class Connection extends ChannelDuplexHandler {

        private int handedOn;          // requests given to the general stack and not yet answered by it
        private boolean discarding;    // the rest of a request answered here (its empty last content) is skipped
        private boolean flushPending;
        private InetAddress client;    // the peer, when no trusted proxy stands in front of it
        private boolean peerTrusted;
        private InetAddress peer;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (discarding) {
                if (msg instanceof HttpContent) {
                    discarding = !(msg instanceof LastHttpContent);
                    ReferenceCountUtil.release(msg);
                    return;
                }
                discarding = false;
            }
            if (msg instanceof HttpRequest request) {
                if (handedOn == 0 && answer(ctx, request)) {
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
                // Reactor Netty reads on demand (auto-read off) and asks for more only after answering a request
                // itself; after one answered here, the next must be asked for here, or the connection stops reading.
                if (handedOn == 0 && !ctx.channel().config().isAutoRead()) {
                    ctx.read();
                }
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof LastHttpContent && handedOn > 0 && !(msg instanceof HttpResponse response
                    && response.status().codeClass() == HttpStatusClass.INFORMATIONAL)) {
                handedOn--; // the general stack finished a response
            }
            ctx.write(msg, promise);
        }

        /** Answers the request from the near cache if it can; {@code false} hands it on untouched. */
        private boolean answer(ChannelHandlerContext ctx, HttpRequest request) {
            HttpMethod method = request.method();
            boolean get = HttpMethod.GET.equals(method);
            if (!get && !HttpMethod.HEAD.equals(method) || !request.decoderResult().isSuccess()) {
                return false;
            }
            HttpHeaders headers = request.headers();
            if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING) || headers.contains(HttpHeaderNames.EXPECT)
                    || HttpUtil.getContentLength(request, 0L) != 0) {
                return false;
            }
            String uri = request.uri();
            int end = codeEnd(uri);
            if (end < 0) {
                return false;
            }
            String code = uri.substring(1, end);
            Found found = near.getIfReady(code);
            if (found == null) {
                return false;
            }
            long start = metrics.start();
            RedirectAnswer answer = found.answer(answers);
            if (answer == null) {
                return unknown(ctx, request, start);
            }
            Link link = answer.link;
            if (!answer.alwaysActive) {
                switch (link.stateAt(clock.instant())) {
                    case EXPIRED -> {
                        return problem(ctx, request, start, Outcome.GONE, RedirectProblems.GONE, null);
                    }
                    case DISABLED, DELETED -> {
                        return unknown(ctx, request, start);
                    }
                    case ACTIVE -> {
                        if (link.maxVisits() != null) {
                            Long visited = visitCounts.fresh(code);
                            if (visited == null) {
                                return false; // the count needs a query: the general stack waits for it
                            }
                            if (visited >= link.maxVisits()) {
                                return problem(ctx, request, start, Outcome.GONE, RedirectProblems.GONE, null);
                            }
                        }
                    }
                }
            }
            String query = end < uri.length() ? uri.substring(end + 1) : null;
            HttpHeaders responseHeaders = answer.variesWith(query) ? answer.headers(answer.location(query))
                    : answer.headers;
            metrics.record(start, Tier.NEAR, Outcome.FOUND);
            if (get) {
                visits.record(code, clientIp(ctx, headers), headers.get(HttpHeaderNames.USER_AGENT),
                        headers.get(HttpHeaderNames.REFERER));
            }
            respond(ctx, request, answer.nettyStatus, responseHeaders, Unpooled.EMPTY_BUFFER);
            return true;
        }

        /** 404 for a code that leads nowhere; 429 once this client has asked for too many of them. */
        private boolean unknown(ChannelHandlerContext ctx, HttpRequest request, long start) {
            ProblemException limited = rateLimiter.notFoundLimited(
                    ClientIpResolver.rateLimitKey(clientIp(ctx, request.headers())));
            return limited == null
                    ? problem(ctx, request, start, Outcome.NOT_FOUND, RedirectProblems.NOT_FOUND, null)
                    : problem(ctx, request, start, Outcome.RATE_LIMITED, RedirectProblems.RATE_LIMITED, limited);
        }

        private boolean problem(ChannelHandlerContext ctx, HttpRequest request, long start, Outcome outcome,
                                RedirectProblems problem, ProblemException limited) {
            metrics.record(start, Tier.NEAR, outcome);
            HttpHeaders headers = problem.headers;
            if (limited != null) { // Retry-After and the rest of the limit's headers
                headers = new DefaultHttpHeaders().add(problem.headers);
                HttpHeaders extra = headers;
                limited.getHeaders().forEach((name, values) -> extra.add(name, values));
            }
            respond(ctx, request, HttpResponseStatus.valueOf(problem.problem.status().value()), headers,
                    problem.content());
            return true;
        }

        private void respond(ChannelHandlerContext ctx, HttpRequest request, HttpResponseStatus status,
                             HttpHeaders headers, ByteBuf body) {
            answered.increment();
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpHeaders sent = headers;
            if (!keepAlive || !request.protocolVersion().isKeepAliveDefault()) {
                sent = new DefaultHttpHeaders().add(headers).set(HttpHeaderNames.CONNECTION,
                        keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
            }
            var response = new DefaultFullHttpResponse(request.protocolVersion(), status, body, sent,
                    EmptyHttpHeaders.INSTANCE);
            if (keepAlive) {
                ctx.write(response, ctx.voidPromise());
                flushPending = true;
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
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
