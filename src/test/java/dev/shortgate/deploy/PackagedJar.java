package dev.shortgate.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The packaged jar ({@code shortgate.test.jar}, set by Failsafe) started as its own process, the way a container
 * runs it: in an empty working directory, on free loopback ports, with a given environment. Closing it sends
 * SIGTERM, as the kubelet does, and deletes the working directory.
 */
final class PackagedJar implements AutoCloseable {

    private final Process process;
    private final Path workDir;
    private final Path log;
    private final int port;
    private final int managementPort;
    private final String apiKey;
    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private PackagedJar(Process process, Path workDir, Path log, int port, int managementPort, String apiKey) {
        this.process = process;
        this.apiKey = apiKey;
        this.workDir = workDir;
        this.log = log;
        this.port = port;
        this.managementPort = managementPort;
    }

    /**
     * Starts the jar with {@code env} added to this process's environment, and waits until it is ready. API calls
     * send {@code SHORTGATE_ADMIN_KEY} from {@code env} as the API key.
     */
    static PackagedJar start(Map<String, String> env, List<String> args) {
        String jar = System.getProperty("shortgate.test.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException(
                    "shortgate.test.jar does not name the packaged jar: " + jar + " (run through `./mvnw verify`)");
        }
        try {
            Path workDir = Files.createTempDirectory("shortgate-it-");
            Path log = workDir.resolve("app.log");
            int port = freePort();
            int managementPort = freePort();
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-jar");
            command.add(jar);
            command.add("--server.port=" + port);
            command.add("--management.server.port=" + managementPort);
            command.add("--server.address=127.0.0.1");
            command.add("--management.server.address=127.0.0.1");
            command.addAll(args);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment()
                    .keySet()
                    .removeIf(name -> name.startsWith("SPRING_")
                            || name.startsWith("SHORTGATE_")
                            || name.equals("JAVA_TOOL_OPTIONS"));
            builder.environment().putAll(env);
            PackagedJar app = new PackagedJar(
                    builder.start(), workDir, log, port, managementPort, env.get("SHORTGATE_ADMIN_KEY"));
            app.awaitReady(Duration.ofSeconds(120));
            return app;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return port;
    }

    int managementPort() {
        return managementPort;
    }

    HttpResponse<String> get(int port, String path) {
        return send(HttpRequest.newBuilder(uri(port, path)).GET());
    }

    HttpResponse<String> head(int port, String path) {
        return send(HttpRequest.newBuilder(uri(port, path)).method("HEAD", HttpRequest.BodyPublishers.noBody()));
    }

    HttpResponse<String> postJson(String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(port, path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (apiKey != null) {
            request.header("X-Api-Key", apiKey);
        }
        return send(request);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    e.toString() + "\n--- app log tail ---\n" + logTail() + "\n--- threads ---\n" + threadDump(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The app's threads (jcmd Thread.print), so a request that timed out can be diagnosed from the CI log. */
    private String threadDump() {
        try {
            Process jcmd = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                    .toString(),
                            Long.toString(process.pid()),
                            "Thread.print")
                    .redirectErrorStream(true)
                    .start();
            String dump = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            jcmd.waitFor(30, TimeUnit.SECONDS);
            return dump;
        } catch (IOException e) {
            return "(no thread dump: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    private static URI uri(int port, String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private void awaitReady(Duration timeout) {
        try {
            Awaitility.await()
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptionsInstanceOf(IOException.class)
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException(
                                    "The jar exited with " + process.exitValue() + ":\n" + logTail());
                        }
                        return http.send(
                                                HttpRequest.newBuilder(
                                                                uri(managementPort, "/actuator/health/readiness"))
                                                        .timeout(Duration.ofSeconds(2))
                                                        .build(),
                                                HttpResponse.BodyHandlers.ofString())
                                        .statusCode()
                                == 200;
                    });
        } catch (ConditionTimeoutException e) {
            close();
            throw new IllegalStateException("The jar was not ready within " + timeout + ":\n" + logTail());
        }
    }

    /** Sends SIGTERM and waits up to {@code timeout} for the process to exit; true when it did. */
    boolean terminate(Duration timeout) {
        process.destroy();
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive() && !terminate(Duration.ofSeconds(60))) {
            process.destroyForcibly();
        }
        try (Stream<Path> files = Files.walk(workDir)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temp directory
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
