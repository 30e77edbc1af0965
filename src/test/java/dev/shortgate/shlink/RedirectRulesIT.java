package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.Pods;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Redirect rules on real MariaDB and Redis, two pods: Shlink's redirect-rules endpoints in Shlink's shapes (checked
 * against its pinned schemas), bad rule sets on either API answering a problem with no row written, and rules set
 * on one pod followed by the other, which finds the link in Redis (the rules travel inside the cached value).
 */
class RedirectRulesIT {

    static final String API = "/rest/v3";
    static final String ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Mobile Safari/537.36";
    static final String IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
            + "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.visit.flush-interval", "50ms")
            .with("shortgate.visit.counts-flush-interval", "100ms")
            .count(2);

    static Map<String, Object> condition(String type, String key, String value) {
        Map<String, Object> condition = new HashMap<>();
        condition.put("type", type);
        condition.put("matchKey", key);
        condition.put("matchValue", value);
        return condition;
    }

    @Test
    void rulesSetThroughShlinkOnOnePodAreFollowedByTheOtherFromRedis() {
        WebTestClient a = pods.a().web();
        WebTestClient b = pods.b().web();
        a.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/it-default", "alias", "it-rules"))
                .exchange()
                .expectStatus()
                .isCreated();
        // b caches the link without rules first
        assertThat(location(b, "it-rules", ANDROID)).isEqualTo("https://example.com/it-default");

        String set = a.post()
                .uri(API + "/short-urls/it-rules/redirect-rules")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of(
                        "redirectRules",
                        List.of(
                                Map.of(
                                        "longUrl",
                                        "https://example.com/it-android",
                                        "conditions",
                                        List.of(condition("device", null, "android"))),
                                Map.of(
                                        "longUrl",
                                        "https://example.com/it-query",
                                        "conditions",
                                        List.of(
                                                condition("query-param", "foo", "bar"),
                                                condition("ip-address", null, "127.0.0.*"))))))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v3_short-urls_{shortCode}_redirect-rules.json", "post", "200", set);
        assertThat(set)
                .contains("\"defaultLongUrl\":\"https://example.com/it-default\"")
                .contains("\"longUrl\":\"https://example.com/it-android\",\"priority\":1")
                .contains("{\"type\":\"query-param\",\"matchKey\":\"foo\",\"matchValue\":\"bar\"}");

        String listed = b.get()
                .uri(API + "/short-urls/it-rules/redirect-rules?domain=DEFAULT")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v3_short-urls_{shortCode}_redirect-rules.json", "get", "200", listed);
        assertThat(listed).isEqualTo(set);

        MeterRegistry registry = pods.b().bean(MeterRegistry.class);
        double fromRedis = redisHits(registry);
        // b's near cache dropped the link on a's change; the next lookup reads Redis, where a wrote it with its rules
        assertThat(location(b, "it-rules", ANDROID)).isEqualTo("https://example.com/it-android");
        assertThat(redisHits(registry)).isGreaterThan(fromRedis);
        assertThat(location(b, "it-rules", IPHONE)).isEqualTo("https://example.com/it-default");
        assertThat(location(b, "it-rules?foo=bar", IPHONE)).isEqualTo("https://example.com/it-query");
        assertThat(location(a, "it-rules", ANDROID)).isEqualTo("https://example.com/it-android");

        // every visit keeps where it was sent, and Shlink's visit list shows it
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(20))
                .untilAsserted(() -> {
                    String visits = a.get()
                            .uri(API + "/short-urls/it-rules/visits")
                            .exchange()
                            .expectStatus()
                            .isOk()
                            .expectBody(String.class)
                            .returnResult()
                            .getResponseBody();
                    ShlinkSchemas.assertValid("v1_short-urls_{shortCode}_visits.json", "get", "200", visits);
                    assertThat(visits)
                            .contains("\"redirectUrl\":\"https://example.com/it-query\"")
                            .contains("\"redirectUrl\":\"https://example.com/it-android\"");
                });
    }

    @Test
    void badRuleSetsOnEitherApiAnswerAProblemAndWriteNoRow() {
        WebTestClient a = pods.a().web();
        a.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/it-bad", "alias", "it-bad"))
                .exchange()
                .expectStatus()
                .isCreated();
        for (Map<String, Object> condition : List.of(
                condition("unknown-type", null, "x"),
                condition("ip-address", null, "10.0.0.0/33"),
                condition("ip-address", null, "2001:db8::/200"),
                condition("after-date", null, "yesterday"),
                condition("browser", null, "lynx"),
                condition("geolocation-country-code", null, "ZZ"))) {
            String body = a.post()
                    .uri(API + "/short-urls/it-bad/redirect-rules")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of(
                            "redirectRules",
                            List.of(Map.of("longUrl", "https://example.com/x", "conditions", List.of(condition)))))
                    .exchange()
                    .expectStatus()
                    .isBadRequest()
                    .expectBody(String.class)
                    .returnResult()
                    .getResponseBody();
            ShlinkSchemas.assertValid("v3_short-urls_{shortCode}_redirect-rules.json", "post", "default", body);
            assertThat(body)
                    .as(condition.toString())
                    .contains("\"type\":\"https://shlink.io/api/error/invalid-data\"")
                    .contains("\"invalidElements\":[\"redirectRules\"]");
            a.put()
                    .uri("/api/v1/links/it-bad/rules")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of(
                            "rules", List.of(Map.of("url", "https://example.com/x", "conditions", List.of(condition)))))
                    .exchange()
                    .expectStatus()
                    .isBadRequest()
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo("https://shortgate.dev/problems/invalid-rules");
        }
        a.put()
                .uri("/api/v1/links/it-bad/rules")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of(
                        "variants",
                        List.of(
                                Map.of("url", "https://example.com/a", "weight", 0),
                                Map.of("url", "https://example.com/b", "weight", 0))))
                .exchange()
                .expectStatus()
                .isBadRequest();
        a.post()
                .uri(API + "/short-urls/it-missing/redirect-rules")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("redirectRules", List.of()))
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/short-url-not-found");
        a.get()
                .uri(API + "/short-urls/it-bad/redirect-rules?domain=other.example")
                .exchange()
                .expectStatus()
                .isNotFound();
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link_rules"))
                .isZero();
    }

    static double redisHits(MeterRegistry registry) {
        return registry.find("shortgate.redirect").tag("tier", "redis").timers().stream()
                .mapToDouble(timer -> timer.count())
                .sum();
    }

    static String location(WebTestClient web, String path, String agent) {
        return web.get()
                .uri("/" + path)
                .header(HttpHeaders.USER_AGENT, agent)
                .exchange()
                .expectStatus()
                .isFound()
                .returnResult(Void.class)
                .getResponseHeaders()
                .getFirst(HttpHeaders.LOCATION);
    }
}
