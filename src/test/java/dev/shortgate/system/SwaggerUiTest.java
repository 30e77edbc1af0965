package dev.shortgate.system;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** With its flag on, Swagger UI is served and finds the description and its configuration without a key. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=swagger-admin-key-0123456789",
            "springdoc.swagger-ui.enabled=true",
            "spring.r2dbc.url=r2dbc:h2:mem:///swaggerui?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class SwaggerUiTest {

    @Autowired
    WebTestClient web;

    @Test
    void swaggerUiPointsAtTheDescriptionAndReadsItsConfigurationWithoutAKey() {
        web.get().uri("/swagger-ui/index.html").exchange().expectStatus().isOk();
        web.get()
                .uri("/swagger-ui/swagger-initializer.js")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .value(js -> org.assertj.core.api.Assertions.assertThat(js).contains("/api/v1/openapi.json"));
        web.get()
                .uri("/api/v1/openapi.json/swagger-config")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.url")
                .isEqualTo("/api/v1/openapi.json");
        web.get().uri("/api/v1/links").exchange().expectStatus().isUnauthorized();
    }
}
