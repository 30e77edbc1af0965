package dev.shortgate.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A Redis stand-in on a random loopback port for tests of what happens when Redis stops answering. It accepts
 * every connection and, while {@linkplain #answer() answering}, relays it to the real test Redis byte for byte.
 * While {@linkplain #silence() silent} it keeps every connection open and reads what the client sends, but
 * passes nothing on and answers nothing: a Redis that hangs (a stopped process, a black-holed network), which a
 * refused connection does not stand for. Going back to answering drops the connections that were silenced, since
 * the replies they missed would leave the client's protocol out of step, so the client reconnects.
 */
public final class StalledRedis implements AutoCloseable {

    private final ServerSocket server;
    private final Supplier<InetSocketAddress> upstream; // null: nothing behind it
    private final List<Relay> relays = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean silent;
    private volatile boolean closed;

    private StalledRedis(Supplier<InetSocketAddress> upstream, boolean silent) {
        this.upstream = upstream;
        this.silent = silent;
        try {
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::acceptLoop, "stalled-redis-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Relays to the test Redis ({@link TestServers#redisUrl()}) until silenced. The test Redis is looked up at
     * the first connection, so a class holding this in a static field still skips cleanly when none is named.
     */
    public static StalledRedis relayingToTestRedis() {
        return new StalledRedis(
                () -> {
                    URI uri = URI.create(TestServers.redisUrl());
                    return new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort());
                },
                false);
    }

    /** Accepts connections and never answers anything, not even the client's handshake. */
    public static StalledRedis neverAnswering() {
        return new StalledRedis(null, true);
    }

    /** {@code redis://127.0.0.1:<port>}, to configure as {@code spring.data.redis.url}. */
    public String url() {
        return "redis://127.0.0.1:" + server.getLocalPort();
    }

    /** Connections accepted so far. */
    public int connectionsAccepted() {
        return accepted.get();
    }

    /** From now on nothing reaches Redis and nothing comes back, on open connections and new ones alike. */
    public void silence() {
        silent = true;
    }

    /** Relays again; connections that were silenced are closed, new ones are relayed. */
    public void answer() {
        if (upstream == null) {
            throw new IllegalStateException("This stand-in has no Redis behind it");
        }
        silent = false;
        for (Relay relay : relays) {
            if (relay.silenced) {
                relay.close();
            }
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                accepted.incrementAndGet();
                Relay relay = new Relay(client);
                relays.add(relay);
                relay.start();
            } catch (IOException e) {
                if (!closed) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        relays.forEach(Relay::close);
    }

    /** One client connection and, while answering, its connection to the real Redis. */
    private final class Relay {

        private final Socket client;
        private volatile Socket redis;
        private volatile boolean silenced;

        Relay(Socket client) {
            this.client = client;
        }

        void start() {
            Thread reader = new Thread(this::clientToRedis, "stalled-redis-in");
            reader.setDaemon(true);
            reader.start();
        }

        private void clientToRedis() {
            byte[] buffer = new byte[8192];
            try (InputStream in = client.getInputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (silent) {
                        silenced = true; // swallowed: the command hangs from the client's side
                        continue;
                    }
                    redis().write(buffer, 0, n);
                }
            } catch (IOException e) {
                // the client or the relay went away
            } finally {
                close();
            }
        }

        private synchronized OutputStream redis() throws IOException {
            if (redis == null) {
                InetSocketAddress target = upstream.get();
                redis = new Socket(target.getAddress(), target.getPort());
                Socket from = redis;
                Thread writer = new Thread(() -> redisToClient(from), "stalled-redis-out");
                writer.setDaemon(true);
                writer.start();
            }
            return redis.getOutputStream();
        }

        private void redisToClient(Socket from) {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream();
                    OutputStream out = client.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (silent) {
                        silenced = true;
                        continue; // a reply that never arrives
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side went away
            } finally {
                close();
            }
        }

        void close() {
            relays.remove(this);
            closeQuietly(client);
            closeQuietly(redis);
        }

        private static void closeQuietly(Socket socket) {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }
}
