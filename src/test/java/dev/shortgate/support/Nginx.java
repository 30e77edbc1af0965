package dev.shortgate.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Assumptions;

/**
 * nginx on loopback as the load balancer in front of several pods: an {@code upstream} of their ports, round robin,
 * started in the foreground as a single process in a directory of its own and stopped by its PID. It connects to
 * the pods from {@link #UPSTREAM_SOURCE} ({@code proxy_bind}), the one address the pods trust as a proxy, sets
 * {@code X-Forwarded-For} as an ingress does ({@code $proxy_add_x_forwarded_for}: what the client sent, then the
 * client's address), and names the pod that answered in {@code X-Upstream}.
 *
 * <p>The binary is {@code SHORTGATE_TEST_NGINX} or {@code /usr/sbin/nginx}; without one the test skips, unless
 * {@code SHORTGATE_TEST_REQUIRE_SERVICES=true} ({@code .ci/run} installs nginx).
 */
public final class Nginx implements AutoCloseable {

    /** The address nginx connects to the pods from: the trusted proxy. */
    public static final String UPSTREAM_SOURCE = "127.0.0.3";

    private final Process process;
    private final Path dir;
    private final int port;

    private Nginx(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /** Starts nginx in front of the given pod ports and waits until it accepts connections. */
    public static Nginx inFrontOf(List<Integer> podPorts) throws IOException {
        String binary = binary();
        int port = freePort();
        Path dir = Files.createTempDirectory("shortgate-nginx");
        Files.createDirectories(dir.resolve("logs"));
        String servers =
                podPorts.stream().map(p -> "    server 127.0.0.1:" + p + ";").collect(Collectors.joining("\n"));
        Files.writeString(dir.resolve("nginx.conf"), """
                worker_processes 1;
                error_log %1$s/logs/error.log warn;
                pid %1$s/nginx.pid;
                events { worker_connections 1024; }
                http {
                  access_log off;
                  client_body_temp_path %1$s/body;
                  proxy_temp_path %1$s/proxy;
                  fastcgi_temp_path %1$s/fastcgi;
                  uwsgi_temp_path %1$s/uwsgi;
                  scgi_temp_path %1$s/scgi;
                  upstream pods {
                %2$s
                    keepalive 32;
                  }
                  server {
                    listen 127.0.0.1:%3$d;
                    location / {
                      proxy_pass http://pods;
                      proxy_http_version 1.1;
                      proxy_set_header Connection "";
                      proxy_set_header Host $host;
                      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                      proxy_bind %4$s;
                      proxy_next_upstream off;
                      add_header X-Upstream $upstream_addr always;
                    }
                  }
                }
                """.formatted(dir, servers, port, UPSTREAM_SOURCE));
        Process process = new ProcessBuilder(
                        binary,
                        "-p",
                        dir.toString(),
                        "-c",
                        dir.resolve("nginx.conf").toString(),
                        "-g",
                        "daemon off; master_process off;")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("logs/stdout.log").toFile())
                .start();
        Nginx nginx = new Nginx(process, dir, port);
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .ignoreExceptionsInstanceOf(IOException.class)
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException(
                                    "nginx exited with " + process.exitValue() + ": " + nginx.errors());
                        }
                        try (Socket probe = new Socket("127.0.0.1", port)) {
                            return true;
                        }
                    });
            return nginx;
        } catch (ConditionTimeoutException e) {
            nginx.close();
        }
        throw new IllegalStateException("nginx did not listen within 10s: " + nginx.errors());
    }

    private static String binary() {
        String named = System.getenv("SHORTGATE_TEST_NGINX");
        Path binary = Path.of(named == null || named.isBlank() ? "/usr/sbin/nginx" : named);
        if (!Files.isExecutable(binary)) {
            if (Boolean.parseBoolean(System.getenv("SHORTGATE_TEST_REQUIRE_SERVICES"))) {
                throw new IllegalStateException(
                        "nginx is not installed at " + binary + ", and SHORTGATE_TEST_REQUIRE_SERVICES=true");
            }
            Assumptions.abort("nginx is not installed at " + binary + "; skipping the load-balancer test");
        }
        return binary.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    private String errors() {
        try {
            return Files.readString(dir.resolve("logs/error.log"), StandardCharsets.UTF_8)
                    + Files.readString(dir.resolve("logs/stdout.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Stops nginx (one process: no master, no workers) and waits for it. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
