package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shortgate.redirect.lookup.NearCache;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * With the database unreachable (a port where nothing listens) and the code in no cache, a redirect answers
 * 503 with Retry-After, never 404, and does not remember the code as unknown.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=test-admin-key-0123456789",
            "spring.r2dbc.url=r2dbc:mysql://127.0.0.1:1/nowhere",
            "spring.r2dbc.username=nobody",
            "spring.r2dbc.pool.initial-size=0",
            "spring.r2dbc.pool.max-acquire-time=1s",
            "spring.r2dbc.pool.max-create-connection-time=1s",
            "spring.flyway.enabled=false"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class DatabaseDownTest {

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        this.web = client.mutate()
                .defaultHeader("X-Api-Key", "test-admin-key-0123456789")
                .build();
    }

    @Autowired
    NearCache nearCache;

    @Autowired
    MeterRegistry registry;

    @Test
    void uncachedCodeAnswers503WithRetryAfterAndIsNotNegativeCached() {
        for (int attempt = 0; attempt < 2; attempt++) {
            web.get()
                    .uri("/SomeCode")
                    .exchange()
                    .expectStatus()
                    .isEqualTo(503)
                    .expectHeader()
                    .valueEquals("Retry-After", "5")
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("https://shortgate.dev/problems/service-unavailable");
        }
        assertThat(nearCache.getIfPresent("SomeCode")).isNull();
        assertThat(registry.get("shortgate.lookups")
                        .tag("tier", "db")
                        .tag("result", "error")
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("shortgate.redirect")
                        .tag("tier", "db")
                        .tag("outcome", "error")
                        .timer()
                        .count())
                .isEqualTo(2);
    }

    @Test
    void createAnswers503ProblemWhenTheDatabaseIsDown() {
        web.post()
                .uri("/api/v1/links")
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue(java.util.Map.of("url", "https://example.com/db-down"))
                .exchange()
                .expectStatus()
                .isEqualTo(503)
                .expectHeader()
                .exists("Retry-After")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/service-unavailable");
    }
}
