package dev.shortgate.support;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * The test RabbitMQ broker, named by {@code SHORTGATE_TEST_RABBITMQ_URL} ({@code amqp://guest:guest@127.0.0.1:5672};
 * {@code .ci/run} installs and starts one). Tests that need it skip without it, and fail under
 * {@code SHORTGATE_TEST_REQUIRE_SERVICES=true}. The broker can be stopped and started again with
 * {@code rabbitmqctl stop_app|start_app}, as an outage of the real server.
 */
public final class TestRabbit {

    private TestRabbit() {}

    public static URI url() {
        String value = System.getenv("SHORTGATE_TEST_RABBITMQ_URL");
        if (value == null || value.isBlank()) {
            value = System.getProperty("SHORTGATE_TEST_RABBITMQ_URL");
        }
        if (value == null || value.isBlank()) {
            if (Boolean.parseBoolean(System.getenv("SHORTGATE_TEST_REQUIRE_SERVICES"))) {
                throw new IllegalStateException(
                        "SHORTGATE_TEST_RABBITMQ_URL is not set, and SHORTGATE_TEST_REQUIRE_SERVICES=true");
            }
            Assumptions.abort("SHORTGATE_TEST_RABBITMQ_URL is not set; skipping a test that needs RabbitMQ");
        }
        return URI.create(value);
    }

    /** Stops the broker's application (its listeners close; the node stays up to be started again). */
    public static void stop() {
        rabbitmqctl("stop_app");
    }

    /** Starts the broker's application again and waits until it serves. */
    public static void start() {
        rabbitmqctl("start_app");
        rabbitmqctl("await_startup");
    }

    private static void rabbitmqctl(String command) {
        try {
            Process process = new ProcessBuilder("rabbitmqctl", "-q", command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("rabbitmqctl " + command + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("rabbitmqctl " + command + " could not run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
