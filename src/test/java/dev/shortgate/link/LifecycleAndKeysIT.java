package dev.shortgate.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * API keys and the link lifecycle on real MariaDB and Redis, through the HTTP API of one running application:
 * the H2 tests' behaviour, on the engine and caches production uses.
 */
class LifecycleAndKeysIT {

    static final MediaType MERGE_PATCH = MediaType.parseMediaType("application/merge-patch+json");
    static final String PROBLEMS = "https://shortgate.dev/problems/";

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb().withRedis().with("shortgate.visit.flush-interval", "50ms");

    static WebTestClient admin;

    @BeforeAll
    static void admin() {
        admin = pods.app().web();
    }

    record NewKey(long id, String key) {}

    @Test
    void adminMadeCreateKeyCreatesLinksAndIsStoredOnlyAsItsSha256() {
        Map<?, ?> body = admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "creator", "scope", "create"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        long id = ((Number) body.get("id")).longValue();
        String key = body.get("key").toString();
        assertThat(body.get("scope")).isEqualTo("create");
        assertThat(key).matches("sg_[A-Za-z0-9_-]{43}");
        admin.get()
                .uri("/api/v1/keys")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.keys[?(@.name == 'creator')].scope")
                .isEqualTo("create");

        as(key).post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/by-creator", "alias", "by-creator"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectHeader()
                .location("/api/v1/links/by-creator");
        pods.app()
                .web()
                .get()
                .uri("/by-creator")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals(HttpHeaders.LOCATION, "https://example.com/by-creator");

        assertThat(pods.database().queryForLong("SELECT api_key_id FROM link WHERE code = 'by-creator'"))
                .isEqualTo(id);
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM api_key WHERE id = " + id
                                + " AND OCTET_LENGTH(key_hash) = 32 AND key_hash = UNHEX('" + sha256Hex(key) + "')"))
                .isEqualTo(1);
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM api_key WHERE INSTR(CONCAT_WS('|', name, scope, "
                                + "key_hash), '" + key + "') > 0"))
                .as("rows holding the key itself")
                .isZero();
    }

    @Test
    void createKeyCannotChangeOrDeleteAnotherKeysLink() {
        WebTestClient alice = as(newKey("alice", "create").key());
        WebTestClient bob = as(newKey("bob", "create").key());
        WebTestClient reader = as(newKey("reader", "read").key());
        alice.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/alice", "alias", "alice-link"))
                .exchange()
                .expectStatus()
                .isCreated();

        // Another create key is not told the link exists: the same 404 as for a code nobody holds.
        bob.patch()
                .uri("/api/v1/links/alice-link")
                .contentType(MERGE_PATCH)
                .bodyValue(Map.of("url", "https://example.com/bob"))
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "link-not-found");
        bob.delete()
                .uri("/api/v1/links/alice-link")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "link-not-found");
        // A read key may see the link, so it is told it may not change it.
        reader.patch()
                .uri("/api/v1/links/alice-link")
                .contentType(MERGE_PATCH)
                .bodyValue(Map.of("disabled", true))
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "forbidden");
        reader.delete()
                .uri("/api/v1/links/alice-link")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "forbidden");

        pods.app()
                .web()
                .get()
                .uri("/alice-link")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals(HttpHeaders.LOCATION, "https://example.com/alice");
        alice.patch()
                .uri("/api/v1/links/alice-link")
                .contentType(MERGE_PATCH)
                .bodyValue(Map.of("redirectStatus", 307))
                .exchange()
                .expectStatus()
                .isOk();
        alice.delete().uri("/api/v1/links/alice-link").exchange().expectStatus().isNoContent();
    }

    @Test
    void keyListingNeverShowsAKeyOrItsHash() {
        String key = newKey("listed", "create").key();
        String hex = sha256Hex(key);

        String body = admin.get()
                .uri("/api/v1/keys")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();

        assertThat(body)
                .contains("\"listed\"")
                .doesNotContain(key)
                .doesNotContain("sg_")
                .doesNotContainIgnoringCase(hex)
                .doesNotContain(java.util.Base64.getEncoder()
                        .encodeToString(HexFormat.of().parseHex(hex)));
        List<?> keys = (List<?>) admin.get()
                .uri("/api/v1/keys")
                .exchange()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("keys");
        assertThat(keys).isNotEmpty().allSatisfy(entry -> assertThat(((Map<?, ?>) entry)
                        .keySet().stream().map(Object::toString).toList())
                .isSubsetOf(Set.of("id", "name", "scope", "domain", "createdAt", "revokedAt")));
    }

    @Test
    void revokedKeyGets401() {
        NewKey created = newKey("short-lived", "create");
        WebTestClient client = as(created.key());
        client.get().uri("/api/v1/links").exchange().expectStatus().isOk();

        admin.delete()
                .uri("/api/v1/keys/" + created.id())
                .exchange()
                .expectStatus()
                .isNoContent();

        client.get()
                .uri("/api/v1/links")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectHeader()
                .valueEquals(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"shortgate\"")
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "unauthorized");
        client.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/after-revoke"))
                .exchange()
                .expectStatus()
                .isUnauthorized();
        admin.delete()
                .uri("/api/v1/keys/" + created.id())
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "api-key-not-found");
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM api_key WHERE id = " + created.id()
                                + " AND revoked_at IS NOT NULL"))
                .isEqualTo(1);
    }

    @Test
    void linkWhoseExpiryIsPatchedIntoThePastAnswers410() {
        create(Map.of(
                        "url",
                        "https://example.com/expiring",
                        "alias",
                        "expiring",
                        "expiresAt",
                        Instant.now().plus(Duration.ofDays(1)).toString()))
                .expectStatus()
                .isCreated();
        pods.app()
                .web()
                .get()
                .uri("/expiring")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals(HttpHeaders.CACHE_CONTROL, "private, max-age=0");

        patch(
                        "expiring",
                        Map.of(
                                "expiresAt",
                                Instant.now().minus(Duration.ofMinutes(1)).toString()))
                .expectStatus()
                .isOk();

        pods.app()
                .web()
                .get()
                .uri("/expiring")
                .exchange()
                .expectStatus()
                .isEqualTo(410)
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectHeader()
                .valueEquals(HttpHeaders.CACHE_CONTROL, "private, max-age=0")
                .expectHeader()
                .doesNotExist(HttpHeaders.LOCATION)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "link-gone");
    }

    @Test
    void disabledLinkAnswers404() {
        create(Map.of("url", "https://example.com/switched-off", "alias", "switched-off"))
                .expectStatus()
                .isCreated();
        pods.app().web().get().uri("/switched-off").exchange().expectStatus().isFound();

        patch("switched-off", Map.of("disabled", true))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.disabled")
                .isEqualTo(true);

        pods.app()
                .web()
                .get()
                .uri("/switched-off")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .doesNotExist(HttpHeaders.LOCATION)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "link-not-found");
    }

    @Test
    void deletedLinkAnswers404AndItsCodeIsNeverReused() {
        create(Map.of("url", "https://example.com/doomed", "alias", "doomed"))
                .expectStatus()
                .isCreated();
        pods.app().web().get().uri("/doomed").exchange().expectStatus().isFound();

        admin.delete().uri("/api/v1/links/doomed").exchange().expectStatus().isNoContent();

        pods.app()
                .web()
                .get()
                .uri("/doomed")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "link-not-found");
        admin.get().uri("/api/v1/links/doomed").exchange().expectStatus().isNotFound();
        admin.delete().uri("/api/v1/links/doomed").exchange().expectStatus().isNotFound();
        create(Map.of("url", "https://example.com/reborn", "alias", "doomed"))
                .expectStatus()
                .isEqualTo(409)
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "alias-taken")
                .jsonPath("$.field")
                .isEqualTo("alias");
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM link WHERE code = 'doomed' "
                                + "AND long_url = 'https://example.com/doomed' AND deleted_at IS NOT NULL"))
                .isEqualTo(1);
    }

    @Test
    void linkCappedAtTwoVisitsAnswers410OnceBothAreWritten() {
        create(Map.of("url", "https://example.com/capped", "alias", "capped", "maxVisits", 2))
                .expectStatus()
                .isCreated();

        for (int i = 0; i < 2; i++) {
            pods.app()
                    .web()
                    .get()
                    .uri("/capped")
                    .exchange()
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .valueEquals(HttpHeaders.LOCATION, "https://example.com/capped");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> countedVisits("capped") == 2);
        // A pod reuses a count for up to a second; HEAD is not a visit, so polling with it adds none.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> pods.app()
                                .web()
                                .head()
                                .uri("/capped")
                                .exchange()
                                .returnResult(Void.class)
                                .getStatus()
                                .value()
                        == 410);

        pods.app()
                .web()
                .get()
                .uri("/capped")
                .exchange()
                .expectStatus()
                .isEqualTo(410)
                .expectHeader()
                .doesNotExist(HttpHeaders.LOCATION)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEMS + "link-gone");
        assertThat(countedVisits("capped")).as("no visit counted past the cap").isEqualTo(2);
    }

    @Test
    void listPagesNewestFirstWithACursor() {
        // A create key lists only its own links, so these five are the whole list.
        WebTestClient lister = as(newKey("lister", "create").key());
        for (int i = 0; i < 5; i++) {
            lister.post()
                    .uri("/api/v1/links")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("url", "https://example.com/listed/" + i, "alias", "listed-" + i))
                    .exchange()
                    .expectStatus()
                    .isCreated();
        }

        List<List<String>> pages = new ArrayList<>();
        String cursor = null;
        do {
            Map<?, ?> page = lister.get()
                    .uri("/api/v1/links?limit=2" + (cursor == null ? "" : "&cursor=" + cursor))
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectBody(Map.class)
                    .returnResult()
                    .getResponseBody();
            pages.add(((List<?>) page.get("links"))
                    .stream()
                            .map(link -> ((Map<?, ?>) link).get("code").toString())
                            .toList());
            cursor = (String) page.get("nextCursor");
        } while (cursor != null && pages.size() < 10);

        // Creation times tie at most within a millisecond, and ties go by code, descending: the same order.
        assertThat(pages)
                .containsExactly(List.of("listed-4", "listed-3"), List.of("listed-2", "listed-1"), List.of("listed-0"));
        lister.get()
                .uri("/api/v1/links?limit=0")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("limit");
    }

    private static NewKey newKey(String name, String scope) {
        Map<?, ?> body = admin.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", name, "scope", scope))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        return new NewKey(((Number) body.get("id")).longValue(), body.get("key").toString());
    }

    private static WebTestClient as(String key) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + pods.app().port())
                .defaultHeader("X-Api-Key", key)
                .responseTimeout(Duration.ofSeconds(30))
                .build();
    }

    private static WebTestClient.ResponseSpec create(Map<String, Object> body) {
        return admin.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private static WebTestClient.ResponseSpec patch(String code, Map<String, Object> body) {
        return admin.patch()
                .uri("/api/v1/links/" + code)
                .contentType(MERGE_PATCH)
                .bodyValue(body)
                .exchange();
    }

    private static long countedVisits(String code) {
        return pods.database()
                .queryForLong("SELECT COALESCE(SUM(visits), 0) FROM link_stats WHERE code = '" + code + "'");
    }

    private static String sha256Hex(String value) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
