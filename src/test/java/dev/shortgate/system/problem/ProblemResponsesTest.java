package dev.shortgate.system.problem;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=test-admin-key-0123456789",
            "spring.r2dbc.url=r2dbc:h2:mem:///problems?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class ProblemResponsesTest {

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        this.web = client.mutate()
                .defaultHeader("X-Api-Key", "test-admin-key-0123456789")
                .build();
    }

    @Test
    void unknownApiPathAnswersNotFoundProblemWithStableType() {
        web.get()
                .uri("/api/v1/nothing")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/not-found")
                .jsonPath("$.status")
                .isEqualTo(404);
    }

    @Test
    void malformedJsonAnswersInvalidRequestProblem() {
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{bad")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-request")
                .jsonPath("$.detail")
                .isEqualTo("The request body is not valid JSON for this endpoint.");
    }

    @Test
    void wrongMediaTypeAnswersUnsupportedMediaTypeProblem() {
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.TEXT_PLAIN)
                .bodyValue("x")
                .exchange()
                .expectStatus()
                .isEqualTo(415)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/unsupported-media-type");
    }
}
