package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** API keys, scopes and ownership on the embedded H2 database, through the real HTTP stack. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + ApiKeyAuthTest.ADMIN,
            "spring.r2dbc.url=r2dbc:h2:mem:///apikeys?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class ApiKeyAuthTest {

    static final String ADMIN = "auth-test-admin-key-0123";

    @Autowired
    WebTestClient anonymous;

    @Autowired
    DatabaseClient db;

    WebTestClient admin;

    @org.springframework.boot.test.web.server.LocalServerPort
    int port;

    @BeforeEach
    void clients() {
        admin = as(ADMIN);
    }

    @Test
    void missingWrongOrMalformedKeysGetTheSame401Problem() {
        for (WebTestClient client : new WebTestClient[] {
            anonymous,
            as("not-a-real-key-000000"),
            anonymous
                    .mutate()
                    .defaultHeader("Authorization", "Basic Zm9vOmJhcg==")
                    .build()
        }) {
            client.get()
                    .uri("/api/v1/links")
                    .exchange()
                    .expectStatus()
                    .isUnauthorized()
                    .expectHeader()
                    .valueEquals("WWW-Authenticate", "Bearer realm=\"shortgate\"")
                    .expectHeader()
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("https://shortgate.dev/problems/unauthorized")
                    .jsonPath("$.detail")
                    .isEqualTo("A valid API key is required, in X-Api-Key or Authorization: Bearer.");
        }
    }

    @Test
    void encodedOrMatrixParameterApiPathsStillNeedAKey() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        for (String path : new String[] {"/%61pi/v1/links", "/api;x=1/v1/links", "/%61pi/v1/links/anything/stats"}) {
            var response = http.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(401);
            assertThat(response.body()).contains("https://shortgate.dev/problems/unauthorized");
        }
    }

    @Test
    void bearerTokenWorksLikeTheHeader() {
        anonymous
                .mutate()
                .defaultHeader("Authorization", "Bearer " + ADMIN)
                .build()
                .get()
                .uri("/api/v1/links")
                .exchange()
                .expectStatus()
                .isOk();
    }

    @Test
    void redirectPathNeedsNoKey() {
        admin.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/open", "alias", "open-door"))
                .exchange()
                .expectStatus()
                .isCreated();
        anonymous.get().uri("/open-door").exchange().expectStatus().isFound();
    }

    @Test
    void keysAreStoredOnlyAsHashesAndShownOnce() {
        String key = newKey("hash-check", "create");
        admin.get()
                .uri("/api/v1/keys")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .value(body -> assertThat(body).contains("hash-check").doesNotContain(key));
        Long plain = db.sql("SELECT COUNT(*) AS n FROM api_key WHERE name = 'hash-check' AND key_hash = :hash")
                .bind("hash", ApiKeys.sha256(key))
                .map(row -> ((Number) row.get("n")).longValue())
                .one()
                .block();
        assertThat(plain).isEqualTo(1);
    }

    @Test
    void createScopeSeesAndChangesOnlyItsOwnLinks() {
        WebTestClient alice = as(newKey("alice", "create"));
        WebTestClient bob = as(newKey("bob", "create"));
        alice.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/alice", "alias", "alice-link"))
                .exchange()
                .expectStatus()
                .isCreated();

        alice.get().uri("/api/v1/links/alice-link").exchange().expectStatus().isOk();
        bob.get().uri("/api/v1/links/alice-link").exchange().expectStatus().isNotFound();
        bob.patch()
                .uri("/api/v1/links/alice-link")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("disabled", true))
                .exchange()
                .expectStatus()
                .isNotFound();
        bob.delete().uri("/api/v1/links/alice-link").exchange().expectStatus().isNotFound();
        bob.get()
                .uri("/api/v1/links")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.links.length()")
                .isEqualTo(0);

        admin.patch()
                .uri("/api/v1/links/alice-link")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("redirectStatus", 307))
                .exchange()
                .expectStatus()
                .isOk();
        alice.delete().uri("/api/v1/links/alice-link").exchange().expectStatus().isNoContent();
    }

    @Test
    void readScopeMayReadButNotCreateOrChange() {
        admin.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/readable", "alias", "readable"))
                .exchange()
                .expectStatus()
                .isCreated();
        WebTestClient reader = as(newKey("reader", "read"));
        reader.get().uri("/api/v1/links/readable").exchange().expectStatus().isOk();
        reader.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/not-by-reader"))
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/forbidden");
        reader.patch()
                .uri("/api/v1/links/readable")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("disabled", true))
                .exchange()
                .expectStatus()
                .isForbidden();
        reader.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "escalate", "scope", "admin"))
                .exchange()
                .expectStatus()
                .isForbidden();
        assertThat(count("SELECT COUNT(*) AS n FROM link WHERE long_url = 'https://example.com/not-by-reader'"))
                .isZero();
    }

    @Test
    void revokedKeyStopsWorking() {
        Map<?, ?> created = admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "short-lived", "scope", "read"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        WebTestClient client = as(created.get("key").toString());
        client.get().uri("/api/v1/links").exchange().expectStatus().isOk();
        admin.delete()
                .uri("/api/v1/keys/" + created.get("id"))
                .exchange()
                .expectStatus()
                .isNoContent();
        client.get().uri("/api/v1/links").exchange().expectStatus().isUnauthorized();
        admin.delete()
                .uri("/api/v1/keys/" + created.get("id"))
                .exchange()
                .expectStatus()
                .isNotFound();
    }

    @Test
    void invalidKeyRequestsAreRejected() {
        admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "x", "scope", "root"))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("scope");
        admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "", "scope", "read"))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("name");
    }

    @Test
    void bodyOver64KiBIsRefusedWith413AndNoRow() {
        String url = "https://example.com/" + "a".repeat(70_000);
        admin.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url))
                .exchange()
                .expectStatus()
                .isEqualTo(413)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/payload-too-large");
        assertThat(count("SELECT COUNT(*) AS n FROM link WHERE CHAR_LENGTH(long_url) > 60000"))
                .isZero();
    }

    private String newKey(String name, String scope) {
        return admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", name, "scope", scope))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("key")
                .toString();
    }

    private WebTestClient as(String key) {
        return anonymous.mutate().defaultHeader("X-Api-Key", key).build();
    }

    private long count(String sql) {
        return db.sql(sql).map(row -> ((Number) row.get("n")).longValue()).one().block();
    }
}
