package dev.shortgate.redirect.http;

import dev.shortgate.redirect.http.Redirects.Reply;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/**
 * The fast path's HTTP, for {@link TrafficConnection}: which Netty requests are plain redirect requests it may take
 * ({@code GET} or {@code HEAD} of {@code /} and a code, optionally with a query, decoded cleanly, with no body and no
 * {@code Expect}), and the Netty response that carries a {@link Reply}. It runs for every request on the traffic
 * port, so it keeps no state and allocates nothing but the response (and a copy of its headers only when the
 * {@code Connection} header must be written).
 */
final class FastHttp {

    private static final int MAX_CODE_LENGTH = 64;

    private FastHttp() {}

    /**
     * Where {@code request} is a plain redirect request: the index in its URI just after the code; otherwise -1 (the
     * general stack decides what such a request gets).
     */
    static int codeEnd(HttpRequest request) {
        HttpMethod method = request.method();
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)
                || !request.decoderResult().isSuccess()) {
            return -1;
        }
        HttpHeaders headers = request.headers();
        if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
                || headers.contains(HttpHeaderNames.EXPECT)
                || HttpUtil.getContentLength(request, 0L) != 0) {
            return -1;
        }
        return codeEnd(request.uri());
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

    /**
     * The response carrying {@code reply}. Its prepared headers go out as they are when the connection stays open as
     * the version expects by default; otherwise a copy says {@code Connection: keep-alive} or {@code close}.
     */
    static FullHttpResponse response(HttpVersion version, boolean keepAlive, Reply reply) {
        HttpHeaders headers = reply.headers();
        if (!keepAlive || !version.isKeepAliveDefault()) {
            headers = new DefaultHttpHeaders()
                    .add(headers)
                    .set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
        }
        return new DefaultFullHttpResponse(
                version,
                reply.status(),
                reply.body() == null ? Unpooled.EMPTY_BUFFER : reply.body().content(),
                headers,
                EmptyHttpHeaders.INSTANCE);
    }
}
