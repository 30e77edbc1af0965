package dev.shortgate.redirect.http;

import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemRenderer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import io.netty.util.AsciiString;

/**
 * The problem answers of the redirect path (404, 410, 429, 503), with {@link ProblemRenderer#compactBody}: built
 * once, shared by both paths.
 */
enum RedirectProblems {
    NOT_FOUND(Problem.LINK_NOT_FOUND),
    GONE(Problem.LINK_GONE),
    RATE_LIMITED(Problem.RATE_LIMITED),
    UNAVAILABLE(Problem.SERVICE_UNAVAILABLE);

    final Problem problem;
    final byte[] body;
    private final ByteBuf buffer;
    /** Content-Type, Content-Length and Cache-Control, ready to encode. */
    final HttpHeaders headers;
    /** The whole answer: status, headers and this body. */
    final Redirects.Reply reply;

    RedirectProblems(Problem problem) {
        this.problem = problem;
        this.body = ProblemRenderer.compactBody(problem);
        this.buffer = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(body).asReadOnly());
        this.headers = new ReadOnlyHttpHeaders(
                true,
                HttpHeaderNames.CONTENT_TYPE,
                AsciiString.cached("application/problem+json"),
                HttpHeaderNames.CONTENT_LENGTH,
                AsciiString.of(Integer.toString(body.length)),
                HttpHeaderNames.CACHE_CONTROL,
                AsciiString.cached(RedirectAnswer.NO_CACHE));
        this.reply =
                new Redirects.Reply(HttpResponseStatus.valueOf(problem.status().value()), headers, this);
    }

    /** The body as a buffer to write: a view of the shared bytes, never released. */
    ByteBuf content() {
        return buffer.duplicate();
    }
}
