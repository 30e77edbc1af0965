package dev.shortgate.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The packaged jar, started with {@code java -jar} in its own working directory, as a user would run it.
 * Failsafe passes the jar's path as the {@code shortgate.test.jar} system property.
 */
public final class JarProcess implements AutoCloseable {

    private final Process process;
    private final Path workDir;
    private final Path log;
    private final int port;
    private final int managementPort;

    private JarProcess(Process process, Path workDir, Path log, int port, int managementPort) {
        this.process = process;
        this.workDir = workDir;
        this.log = log;
        this.port = port;
        this.managementPort = managementPort;
    }

    /** Starts the jar with {@code --name=value} arguments and waits until its health endpoint answers. */
    public static JarProcess start(Map<String, String> arguments, Map<String, String> environment) throws IOException {
        String jar = System.getProperty("shortgate.test.jar");
        if (jar == null || !Files.exists(Path.of(jar))) {
            throw new IllegalStateException("The packaged jar is missing (" + jar + "); run through `./mvnw verify`");
        }
        int port = freePort();
        int managementPort = freePort();
        Path workDir = Files.createTempDirectory("shortgate-e2e");
        Path log = workDir.resolve("app.log");
        List<String> command = new ArrayList<>(List.of(
                javaBinary(),
                "-Xmx512m",
                "-jar",
                jar,
                "--server.port=" + port,
                "--management.server.port=" + managementPort));
        arguments.forEach((name, value) -> command.add("--" + name + "=" + value));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        JarProcess app = new JarProcess(builder.start(), workDir, log, port, managementPort);
        app.awaitHealthy(Duration.ofSeconds(150)); // start, then a warm-up of up to 35 s (its deadline)
        return app;
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void awaitHealthy(Duration timeout) {
        HttpClient client = HttpClient.newHttpClient();
        URI readiness = URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/readiness");
        try {
            Awaitility.await()
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(200))
                    .ignoreExceptionsInstanceOf(IOException.class)
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException(
                                    "The jar exited with " + process.exitValue() + ":\n" + logTail());
                        }
                        return client.send(
                                                HttpRequest.newBuilder(readiness)
                                                        .build(),
                                                HttpResponse.BodyHandlers.discarding())
                                        .statusCode()
                                == 200;
                    });
        } catch (ConditionTimeoutException e) {
            close();
            throw new IllegalStateException("The jar did not become ready within " + timeout + ":\n" + logTail());
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public String managementUrl() {
        return "http://127.0.0.1:" + managementPort;
    }

    public Process process() {
        return process;
    }

    public Path workDir() {
        return workDir;
    }

    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Sends SIGTERM and waits for the process to exit; returns its exit code. */
    public int terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("The jar did not exit within " + timeout + " of SIGTERM");
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
