package dev.shortgate.support;

import java.time.Duration;
import java.util.Map;

import org.springframework.context.ConfigurableApplicationContext;
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

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    @Override
    public void close() {
        context.close();
    }
}
