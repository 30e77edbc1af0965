package dev.shortgate.link;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** A link with maxVisits answers 410 once its visit counters reach the cap. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + MaxVisitsTest.KEY,
            "shortgate.visit.flush-interval=50ms",
            "spring.r2dbc.url=r2dbc:h2:mem:///maxvisits?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class MaxVisitsTest {

    static final String KEY = "maxvisits-admin-key-0123";

    WebTestClient web;

    @Autowired
    DatabaseClient db;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void cappedLinkAnswers410OnceItsVisitsAreCounted() {
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/capped", "alias", "capped", "maxVisits", 3))
                .exchange()
                .expectStatus()
                .isCreated();
        for (int i = 0; i < 3; i++) {
            web.get().uri("/capped").exchange().expectStatus().isFound();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> visits("capped") == 3);
        // A pod reuses a count for up to a second; HEAD is not a visit, so polling with it adds none.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> web.head()
                                .uri("/capped")
                                .exchange()
                                .returnResult(Void.class)
                                .getStatus()
                                .value()
                        == 410);

        web.get()
                .uri("/capped")
                .exchange()
                .expectStatus()
                .isEqualTo(410)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/link-gone");
        org.assertj.core.api.Assertions.assertThat(visits("capped"))
                .as("no visit recorded past the cap")
                .isEqualTo(3);

        web.patch()
                .uri("/api/v1/links/capped")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("maxVisits", 10))
                .exchange()
                .expectStatus()
                .isOk();
        web.get().uri("/capped").exchange().expectStatus().isFound();
    }

    private long visits(String code) {
        return db.sql("SELECT COALESCE(SUM(visits), 0) AS n FROM link_stats WHERE code = :code")
                .bind("code", code)
                .map(row -> ((Number) row.get("n")).longValue())
                .one()
                .block();
    }
}
