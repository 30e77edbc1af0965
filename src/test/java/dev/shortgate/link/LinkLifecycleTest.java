package dev.shortgate.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Editing, expiring, disabling and deleting links, and what redirects then answer. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + LinkLifecycleTest.KEY,
            "spring.r2dbc.url=r2dbc:h2:mem:///lifecycle?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class LinkLifecycleTest {

    static final String KEY = "lifecycle-admin-key-0123";
    static final MediaType MERGE_PATCH = MediaType.parseMediaType("application/merge-patch+json");

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void createAcceptsLifecycleSettings() {
        Instant expires = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MILLIS);
        create(Map.of(
                        "url",
                        "https://example.com/settings",
                        "alias",
                        "settings",
                        "expiresAt",
                        expires.toString(),
                        "maxVisits",
                        10,
                        "redirectStatus",
                        308,
                        "forwardQuery",
                        true))
                .expectStatus()
                .isCreated()
                .expectBody()
                .jsonPath("$.expiresAt")
                .isEqualTo(expires.toString())
                .jsonPath("$.maxVisits")
                .isEqualTo(10)
                .jsonPath("$.redirectStatus")
                .isEqualTo(308)
                .jsonPath("$.forwardQuery")
                .isEqualTo(true);
        web.get().uri("/settings").exchange().expectStatus().isEqualTo(308);
    }

    @Test
    void invalidLifecycleSettingsAreRejected() {
        create(Map.of("url", "https://example.com/bad-status", "redirectStatus", 303))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("redirectStatus");
        create(Map.of("url", "https://example.com/bad-visits", "maxVisits", 0))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("maxVisits");
        create(Map.of("url", "https://example.com/past", "expiresAt", "2001-01-01T00:00:00Z"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("expiresAt");
    }

    @Test
    void disabledLinkAnswers404UntilEnabledAgain() {
        create(Map.of("url", "https://example.com/toggle", "alias", "toggle"))
                .expectStatus()
                .isCreated();
        patch("toggle", Map.of("disabled", true))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.disabled")
                .isEqualTo(true);
        web.get().uri("/toggle").exchange().expectStatus().isNotFound();
        patch("toggle", Map.of("disabled", false)).expectStatus().isOk();
        web.get().uri("/toggle").exchange().expectStatus().isFound();
    }

    @Test
    void expiredLinkAnswers410() {
        create(Map.of("url", "https://example.com/expiring", "alias", "expiring"))
                .expectStatus()
                .isCreated();
        web.get().uri("/expiring").exchange().expectStatus().isFound();
        patch("expiring", Map.of("expiresAt", Instant.now().minusSeconds(1).toString()))
                .expectStatus()
                .isOk();
        web.get()
                .uri("/expiring")
                .exchange()
                .expectStatus()
                .isEqualTo(410)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/link-gone");
        Map<String, Object> clear = new HashMap<>();
        clear.put("expiresAt", null);
        patch("expiring", clear)
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.expiresAt")
                .doesNotExist();
        web.get().uri("/expiring").exchange().expectStatus().isFound();
    }

    @Test
    void changingTheTargetAndStatusTakesEffectAtOnce() {
        create(Map.of("url", "https://example.com/old", "alias", "moving"))
                .expectStatus()
                .isCreated();
        web.get().uri("/moving").exchange().expectHeader().valueEquals("Location", "https://example.com/old");
        patch("moving", Map.of("url", "https://EXAMPLE.com/new", "redirectStatus", 301))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.url")
                .isEqualTo("https://example.com/new");
        web.get()
                .uri("/moving")
                .exchange()
                .expectStatus()
                .isEqualTo(301)
                .expectHeader()
                .valueEquals("Location", "https://example.com/new");
    }

    @Test
    void badPatchesAreRejectedAndChangeNothing() {
        create(Map.of("url", "https://example.com/stable", "alias", "stable"))
                .expectStatus()
                .isCreated();
        patch("stable", Map.of("url", "javascript:alert(1)"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/url-scheme-not-allowed");
        patch("stable", Map.of("code", "other")).expectStatus().isBadRequest();
        patch("stable", Map.of("maxVisits", -3)).expectStatus().isBadRequest();
        patch("stable", Map.of("disabled", "yes")).expectStatus().isBadRequest();
        patch("nope-nope", Map.of("disabled", true)).expectStatus().isNotFound();
        web.get()
                .uri("/stable")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/stable");
    }

    @Test
    void deletedLinkIs404AndItsCodeIsNeverReused() {
        String code = create(Map.of("url", "https://example.com/doomed"))
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
        web.delete().uri("/api/v1/links/" + code).exchange().expectStatus().isNoContent();
        web.get().uri("/" + code).exchange().expectStatus().isNotFound();
        web.get().uri("/api/v1/links/" + code).exchange().expectStatus().isNotFound();
        web.delete().uri("/api/v1/links/" + code).exchange().expectStatus().isNotFound();

        create(Map.of("url", "https://example.com/doomed"))
                .expectStatus()
                .isCreated()
                .expectBody()
                .jsonPath("$.code")
                .value(again -> assertThat(again).isNotEqualTo(code));
        create(Map.of("url", "https://example.com/other", "alias", code))
                .expectStatus()
                .isEqualTo(409);
    }

    @Test
    void forwardQueryMergesTheVisitorsQueryWithTheTargets() {
        create(Map.of("url", "https://example.com/land?utm=sms#top", "alias", "fwd", "forwardQuery", true))
                .expectStatus()
                .isCreated();
        web.get()
                .uri("/fwd?ref=abc&x=1")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/land?utm=sms&ref=abc&x=1#top");
        web.get().uri("/fwd").exchange().expectHeader().valueEquals("Location", "https://example.com/land?utm=sms#top");
        create(Map.of("url", "https://example.com/plain", "alias", "nofwd"))
                .expectStatus()
                .isCreated();
        web.get().uri("/nofwd?ref=abc").exchange().expectHeader().valueEquals("Location", "https://example.com/plain");
    }

    @Test
    void listPagesNewestFirstWithACursor() {
        for (int i = 0; i < 5; i++) {
            create(Map.of("url", "https://example.com/page/" + i, "alias", "page-" + i))
                    .expectStatus()
                    .isCreated();
        }
        Map<?, ?> first = web.get()
                .uri("/api/v1/links?limit=3")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        assertThat((java.util.List<?>) first.get("links")).hasSize(3);
        String cursor = first.get("nextCursor").toString();
        Map<?, ?> second = web.get()
                .uri("/api/v1/links?limit=3&cursor=" + cursor)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        java.util.List<String> codes = new java.util.ArrayList<>();
        for (Object page : new Object[] {first.get("links"), second.get("links")}) {
            for (Object link : (java.util.List<?>) page) {
                codes.add(((Map<?, ?>) link).get("code").toString());
            }
        }
        assertThat(codes).doesNotHaveDuplicates();
        assertThat(codes.indexOf("page-4")).isLessThan(codes.indexOf("page-0"));
        web.get().uri("/api/v1/links?limit=0").exchange().expectStatus().isBadRequest();
        web.get().uri("/api/v1/links?cursor=%%%").exchange().expectStatus().isBadRequest();
    }

    private WebTestClient.ResponseSpec create(Map<String, Object> body) {
        return web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private WebTestClient.ResponseSpec patch(String code, Map<String, Object> body) {
        return web.patch()
                .uri("/api/v1/links/" + code)
                .contentType(MERGE_PATCH)
                .bodyValue(body)
                .exchange();
    }
}
