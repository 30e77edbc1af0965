package dev.shortgate.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Kills and restarts nodes of the test Galera cluster through {@code .ci/galera.sh} (which must be the script that
 * started it, with the same {@code GALERA_DIR} and {@code GALERA_BASE_PORT}): {@code kill N} is a {@code kill -9},
 * {@code restart N} returns once the node has rejoined (by IST) and haproxy sends to it again.
 */
public final class GaleraNodes {

    private GaleraNodes() {}

    public static void kill(int node) {
        run("kill", node, 30);
    }

    public static void restart(int node) {
        run("restart", node, 300);
    }

    /** How many nodes {@code node} sees in its cluster ({@code wsrep_cluster_size}). */
    public static int clusterSize(int node) {
        String out = run("sql", node, 30, "SHOW GLOBAL STATUS LIKE 'wsrep_cluster_size'")
                .trim();
        return Integer.parseInt(out.substring(out.lastIndexOf('\t') + 1).trim());
    }

    /** The output of the last command, for a test that wants to say how the node rejoined. */
    private static String run(String command, int node, long timeoutSeconds, String... more) {
        Path script = Path.of(System.getProperty("user.dir"), ".ci", "galera.sh");
        try {
            Path log = Files.createTempFile("galera-" + command, ".log");
            java.util.List<String> line =
                    new java.util.ArrayList<>(java.util.List.of(script.toString(), command, Integer.toString(node)));
            line.addAll(java.util.List.of(more));
            Process process = new ProcessBuilder(line)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(".ci/galera.sh " + command + " " + node + " did not finish in "
                        + timeoutSeconds + " s: " + Files.readString(log, StandardCharsets.UTF_8));
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Files.deleteIfExists(log);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        ".ci/galera.sh " + command + " " + node + " failed (" + process.exitValue() + "): " + output);
            }
            if (more.length == 0) {
                System.out.print(output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("Could not run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + script, e);
        }
    }
}
