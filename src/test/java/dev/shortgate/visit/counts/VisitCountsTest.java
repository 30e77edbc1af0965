package dev.shortgate.visit.counts;

import java.util.Map;
import java.util.UUID;

import dev.shortgate.support.RunningApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** {@code maxVisits} is enforced from the stored counts plus this pod's counts not yet written. */
class VisitCountsTest {

    static RunningApp app;

    @BeforeAll
    static void start() {
        app = RunningApp.start(Map.of(
                "spring.r2dbc.url",
                "r2dbc:h2:mem:///counts-" + UUID.randomUUID()
                        + "?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE",
                "shortgate.visit.counts-flush-interval",
                "10m")); // nothing is written during the test
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void capIsEnforcedFromThisPodsUnwrittenCountsBeforeAnyFlush() {
        String code = app.web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/capped-before-flush", "maxVisits", 3))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();

        for (int i = 0; i < 3; i++) {
            app.web().get().uri("/" + code).exchange().expectStatus().isFound();
        }

        app.web().get().uri("/" + code).exchange().expectStatus().isEqualTo(410);
    }
}
