package dev.shortgate.transfer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A small real HTTP server standing in for a product that cannot run here (YOURLS, Kutt, Bitly): it answers one path
 * from a function of the request and records every request's path and query, and the headers the tests look at.
 */
final class StandIn implements AutoCloseable {

    /** An answer: status, body, and a {@code Retry-After} value or {@code null}. */
    record Answer(int status, String body, String retryAfter) {
        static Answer ok(String body) {
            return new Answer(200, body, null);
        }
    }

    /** A request as the stand-in saw it. */
    record Seen(String pathAndQuery, String apiKey, String authorization) {}

    private final HttpServer server;
    final List<Seen> seen = new CopyOnWriteArrayList<>();

    StandIn(String path, Function<Seen, Answer> answers) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext(path, exchange -> answer(exchange, answers));
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void answer(HttpExchange exchange, Function<Seen, Answer> answers) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        Seen request = new Seen(
                exchange.getRequestURI().getPath() + (query == null ? "" : "?" + query),
                exchange.getRequestHeaders().getFirst("X-API-KEY"),
                exchange.getRequestHeaders().getFirst("Authorization"));
        seen.add(request);
        Answer answer = answers.apply(request);
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        if (answer.retryAfter() != null) {
            exchange.getResponseHeaders().set("Retry-After", answer.retryAfter());
        }
        exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
        exchange.close();
    }

    /** The value of a query parameter of a request, or {@code null}. */
    static String parameter(Seen request, String name) {
        int start = request.pathAndQuery().indexOf('?');
        if (start < 0) {
            return null;
        }
        for (String pair : request.pathAndQuery().substring(start + 1).split("&")) {
            if (pair.startsWith(name + "=")) {
                return java.net.URLDecoder.decode(pair.substring(name.length() + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
