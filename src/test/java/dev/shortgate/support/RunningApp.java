package dev.shortgate.support;

import java.time.Duration;
import java.util.Map;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** One started application ("pod") with clients for its traffic and management ports. */
public final class RunningApp implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private RunningApp(ConfigurableApplicationContext context) {
        this.context = context;
    }

    public static RunningApp start(Map<String, Object> properties) {
        return new RunningApp(TestServers.startApp(properties));
    }

    public ConfigurableApplicationContext context() {
        return context;
    }

    public int port() {
        return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
    }

    public int managementPort() {
        return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.management.port"));
    }

    public WebTestClient web() {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + port())
                .defaultHeader("X-Api-Key", TestServers.ADMIN_KEY)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }

    public WebTestClient management() {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + managementPort())
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }

    /** Creates a link to {@code url} through the API, as the admin key, and returns its code. */
    public String shorten(String url) {
        return web().post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    /**
     * Closes the pod, waiting at most {@link #CLOSE_BOUND}. Pods in one JVM once shared Reactor Netty's global event
     * loops: when an earlier pod's close had terminated them, a later pod's {@code ReactorResourceFactory.stop()} could
     * wait forever on a dispose whose listener Netty could not notify ("Failed to submit a listener notification task.
     * Event loop shut down?"), which hung a CI run for good. Each pod now has resources of its own
     * ({@link TestServers#startApp}); the bound stays as a guard, so no close can hang a run: past it the close is
     * interrupted, which ends such a wait, and the rest of the context closes.
     */
    @Override
    public void close() {
        Thread closer = new Thread(context::close, "pod-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(CLOSE_BOUND.toMillis());
            if (closer.isAlive()) {
                closer.interrupt();
                closer.join(CLOSE_BOUND.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            throw new IllegalStateException("A pod did not close within " + CLOSE_BOUND.multipliedBy(2));
        }
    }

    private static final Duration CLOSE_BOUND = Duration.ofSeconds(60);
}
