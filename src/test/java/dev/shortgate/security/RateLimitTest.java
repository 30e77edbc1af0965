package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Per-key API limits and per-IP unknown-code limits, with the in-process buckets of the embedded mode. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + RateLimitTest.KEY,
            "shortgate.security.rate-limit.api-capacity=5",
            "shortgate.security.rate-limit.api-refill=1",
            "shortgate.security.rate-limit.api-period=1h",
            "shortgate.security.rate-limit.not-found-capacity=3",
            "shortgate.security.rate-limit.not-found-refill=1",
            "shortgate.security.rate-limit.not-found-period=1h",
            "shortgate.security.rate-limit.auth-failure-capacity=3",
            "shortgate.security.rate-limit.auth-failure-refill=1",
            "shortgate.security.rate-limit.auth-failure-period=1h",
            // Each test is its own client behind a trusted proxy, so the per-IP buckets of one never touch another's.
            "shortgate.visit.trusted-proxies=127.0.0.0/8",
            "spring.r2dbc.url=r2dbc:h2:mem:///ratelimit?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class RateLimitTest {

    static final String KEY = "ratelimit-admin-key-0123";

    @Autowired
    WebTestClient anonymous;

    @Autowired
    DatabaseClient db;

    @Test
    void keyOverItsBudgetGets429WithRetryAfterAndRealCodesAreNeverLimited() {
        anonymous = anonymous
                .mutate()
                .defaultHeader("X-Forwarded-For", "203.0.113.1")
                .build();
        WebTestClient admin = anonymous.mutate().defaultHeader("X-Api-Key", KEY).build();
        admin.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/limited", "alias", "real-code"))
                .exchange()
                .expectStatus()
                .isCreated();
        for (int i = 0; i < 4; i++) {
            admin.get().uri("/api/v1/links/real-code").exchange().expectStatus().isOk();
        }
        admin.get()
                .uri("/api/v1/links/real-code")
                .exchange()
                .expectStatus()
                .isEqualTo(429)
                .expectHeader()
                .exists("Retry-After")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/rate-limited");

        for (int i = 0; i < 3; i++) {
            anonymous.get().uri("/unknown-" + i).exchange().expectStatus().isNotFound();
        }
        anonymous
                .get()
                .uri("/unknown-x")
                .exchange()
                .expectStatus()
                .isEqualTo(429)
                .expectHeader()
                .exists("Retry-After");
        for (int i = 0; i < 20; i++) {
            anonymous.get().uri("/real-code").exchange().expectStatus().isFound();
        }
    }

    @Test
    void disabledAndDeletedCodesAnswerExactlyAsUnknownCodesDoLimitIncluded() {
        anonymous = anonymous
                .mutate()
                .defaultHeader("X-Forwarded-For", "203.0.113.2")
                .build();
        db.sql("INSERT INTO link (code, long_url, long_url_hash, alias, created_at, disabled) "
                        + "VALUES ('off-code', 'https://example.com/off', :hash, TRUE, CURRENT_TIMESTAMP, TRUE)")
                .bind("hash", new byte[32])
                .then()
                .block();
        db.sql(
                        "INSERT INTO link (code, long_url, long_url_hash, alias, created_at, deleted_at) "
                                + "VALUES ('gone-code', 'https://example.com/gone', :hash, TRUE, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)")
                .bind("hash", new byte[32])
                .then()
                .block();

        anonymous
                .get()
                .uri("/off-code")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/link-not-found");
        anonymous.get().uri("/gone-code").exchange().expectStatus().isNotFound();
        anonymous.get().uri("/never-made").exchange().expectStatus().isNotFound();
        // the budget (3) is spent: all three kinds now answer alike
        for (String code : new String[] {"off-code", "gone-code", "never-made"}) {
            anonymous
                    .get()
                    .uri("/" + code)
                    .exchange()
                    .expectStatus()
                    .isEqualTo(429)
                    .expectHeader()
                    .exists("Retry-After");
        }
    }

    @Test
    void aClientPresentingWrongKeysGets429OnceOverItsBudgetWhileOthersAndKnownKeysDoNot() {
        WebTestClient guesser = anonymous
                .mutate()
                .defaultHeader("X-Forwarded-For", "203.0.113.3")
                .build();
        for (int i = 0; i < 3; i++) {
            guesser.get()
                    .uri("/api/v1/links")
                    .header("X-Api-Key", "guessed-key-" + i + "-0123456789")
                    .exchange()
                    .expectStatus()
                    .isUnauthorized();
        }
        guesser.get()
                .uri("/api/v1/links")
                .header("X-Api-Key", "guessed-key-x-0123456789")
                .exchange()
                .expectStatus()
                .isEqualTo(429)
                .expectHeader()
                .exists("Retry-After")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/rate-limited")
                .jsonPath("$.detail")
                .isEqualTo("Too many requests with wrong API keys from this address.");

        // the admin key is known without a database lookup, so the same address may still use it (it may be
        // over its own per-key budget from another test here, which is a different 429)
        String known = guesser.get()
                .uri("/api/v1/links")
                .header("X-Api-Key", KEY)
                .exchange()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(known).doesNotContain("wrong API keys");
        // another address still gets its plain 401
        anonymous
                .mutate()
                .defaultHeader("X-Forwarded-For", "203.0.113.4")
                .build()
                .get()
                .uri("/api/v1/links")
                .header("X-Api-Key", "guessed-key-y-0123456789")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }
}
