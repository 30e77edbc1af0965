package dev.shortgate.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Redirect rules through the native API and the redirect path, on H2 (no Redis). */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=test-admin-key-0123456789",
            "shortgate.visit.flush-interval=50ms",
            "shortgate.visit.counts-flush-interval=100ms",
            "spring.r2dbc.url=r2dbc:h2:mem:///rules?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class RedirectRulesTest {

    static final String ANDROID = RuleEngineTest.ANDROID;
    static final String IPHONE = RuleEngineTest.IPHONE;

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        this.web = client.mutate()
                .defaultHeader("X-Api-Key", "test-admin-key-0123456789")
                .build();
    }

    @Autowired
    DatabaseClient db;

    static Map<String, Object> condition(String type, String key, String value) {
        Map<String, Object> condition = new java.util.HashMap<>();
        condition.put("type", type);
        condition.put("matchKey", key);
        condition.put("matchValue", value);
        return condition;
    }

    @Test
    void rulesAreStoredListedAndFollowedByTheRedirectAtOnce() {
        String code = create("https://example.com/default", true);
        web.get()
                .uri("/api/v1/links/" + code + "/rules")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.rules.length()")
                .isEqualTo(0)
                .jsonPath("$.url")
                .isEqualTo("https://example.com/default");
        assertThat(location(code, null, ANDROID, null)).isEqualTo("https://example.com/default");

        put(
                        code,
                        Map.of(
                                "rules",
                                List.of(
                                        Map.of(
                                                "url",
                                                "https://example.com/android",
                                                "conditions",
                                                List.of(condition("device", null, "android"))),
                                        Map.of(
                                                "url",
                                                "https://example.com/fr?x=1",
                                                "conditions",
                                                List.of(condition("language", null, "fr"))))))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.rules[0].priority")
                .isEqualTo(1)
                .jsonPath("$.rules[1].priority")
                .isEqualTo(2)
                .jsonPath("$.rules[0].conditions[0].type")
                .isEqualTo("device");

        // the near cache held the link without rules: the change reached it
        assertThat(location(code, null, ANDROID, null)).isEqualTo("https://example.com/android");
        assertThat(location(code, null, IPHONE, "fr-FR,fr;q=0.9")).isEqualTo("https://example.com/fr?x=1");
        assertThat(location(code, null, IPHONE, "de")).isEqualTo("https://example.com/default");
        // the query is forwarded to a rule's target as to the link's URL
        assertThat(location(code, "utm=a", IPHONE, "fr")).isEqualTo("https://example.com/fr?x=1&utm=a");
        assertThat(location(code, "utm=a", ANDROID, null)).isEqualTo("https://example.com/android?utm=a");

        web.get()
                .uri("/api/v1/links/" + code + "/rules")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.rules.length()")
                .isEqualTo(2)
                .jsonPath("$.rules[1].url")
                .isEqualTo("https://example.com/fr?x=1");

        put(code, Map.of())
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.rules.length()")
                .isEqualTo(0);
        assertThat(location(code, null, ANDROID, null)).isEqualTo("https://example.com/default");
        assertThat(rows(code)).isZero();
    }

    @Test
    void visitsKeepTheDestinationAndStatsBreakThemDownByIt() {
        String code = create("https://example.com/own", false);
        put(code, rules(rule("https://example.com/ios", condition("device", null, "ios"))))
                .expectStatus()
                .isOk();
        location(code, null, IPHONE, null);
        location(code, null, IPHONE, null);
        location(code, null, ANDROID, null);
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(20))
                .untilAsserted(() -> web.get()
                        .uri("/api/v1/links/" + code + "/stats")
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .jsonPath("$.topDestinations[0].label")
                        .isEqualTo("https://example.com/ios")
                        .jsonPath("$.topDestinations[0].visits")
                        .isEqualTo(2)
                        .jsonPath("$.topDestinations[1].label")
                        .isEqualTo("https://example.com/own"));
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(20))
                .untilAsserted(() -> web.get()
                        .uri("/api/v1/links/" + code + "/visits")
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .jsonPath("$.visits.length()")
                        .isEqualTo(3)
                        .jsonPath("$.visits[0].redirectUrl")
                        .isEqualTo("https://example.com/own")
                        .jsonPath("$.visits[2].redirectUrl")
                        .isEqualTo("https://example.com/ios"));
    }

    @Test
    void aPermanentLinkWithRulesIsNeverSharedCacheable() {
        String code = web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/permanent", "redirectStatus", 301))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
        web.get()
                .uri("/" + code)
                .exchange()
                .expectHeader()
                .valueEquals(HttpHeaders.CACHE_CONTROL, "public, max-age=3600");
        put(code, rules(rule("https://example.com/ios", condition("device", null, "ios"))))
                .expectStatus()
                .isOk();
        for (String agent : new String[] {IPHONE, ANDROID}) {
            web.get()
                    .uri("/" + code)
                    .header(HttpHeaders.USER_AGENT, agent)
                    .exchange()
                    .expectStatus()
                    .isEqualTo(301)
                    .expectHeader()
                    .valueEquals(HttpHeaders.CACHE_CONTROL, "private, max-age=0");
        }
    }

    @Test
    void aDefaultSplitSendsEachVisitorToTheSameVariant() {
        String code = create("https://example.com/split", false);
        put(
                        code,
                        Map.of(
                                "variants",
                                List.of(
                                        Map.of("url", "https://example.com/a", "weight", 1),
                                        Map.of("url", "https://example.com/b", "weight", 1))))
                .expectStatus()
                .isOk();
        String first = location(code, null, IPHONE, null);
        assertThat(first).isIn("https://example.com/a", "https://example.com/b");
        for (int i = 0; i < 5; i++) {
            assertThat(location(code, null, IPHONE, null)).isEqualTo(first);
        }
    }

    @Test
    void everyBadRuleSetAnswersAProblemAndWritesNothing() {
        String code = create("https://example.com/bad", false);
        Map<String, Object> good =
                Map.of("url", "https://example.com/ok", "conditions", List.of(condition("device", null, "ios")));
        List<Object[]> cases = List.of(
                new Object[] {"unknown type", rules(rule("https://example.com/x", condition("nope", null, "x")))},
                new Object[] {
                    "bad cidr", rules(rule("https://example.com/x", condition("ip-address", null, "10.0.0.0/40")))
                },
                new Object[] {"bad date", rules(rule("https://example.com/x", condition("before-date", null, "soon")))},
                new Object[] {"bad device", rules(rule("https://example.com/x", condition("device", null, "fridge")))},
                new Object[] {"no conditions", rules(Map.of("url", "https://example.com/x", "conditions", List.of()))},
                new Object[] {
                    "too many rules", Map.of("rules", java.util.Collections.nCopies(RuleCheck.MAX_RULES + 1, good))
                },
                new Object[] {"url policy", rules(rule("javascript:alert(1)", condition("device", null, "ios")))},
                new Object[] {"private host", rules(rule("http://127.0.0.1/", condition("device", null, "ios")))},
                new Object[] {
                    "weights sum to 0",
                    Map.of(
                            "variants",
                            List.of(
                                    Map.of("url", "https://example.com/a", "weight", 0),
                                    Map.of("url", "https://example.com/b", "weight", 0)))
                },
                new Object[] {
                    "one variant", Map.of("variants", List.of(Map.of("url", "https://example.com/a", "weight", 1)))
                },
                new Object[] {
                    "eleven variants",
                    Map.of(
                            "variants",
                            java.util.Collections.nCopies(
                                    RuleCheck.MAX_VARIANTS + 1, Map.of("url", "https://example.com/a", "weight", 1)))
                },
                new Object[] {
                    "negative weight",
                    Map.of(
                            "variants",
                            List.of(
                                    Map.of("url", "https://example.com/a", "weight", -1),
                                    Map.of("url", "https://example.com/b", "weight", 2)))
                },
                new Object[] {"wrong json type", Map.of("rules", "all of them")},
                new Object[] {"unknown top-level field", Map.of("rulez", List.of(good))},
                new Object[] {
                    "unknown rule field",
                    rules(Map.of(
                            "url",
                            "https://example.com/x",
                            "conditions",
                            List.of(condition("device", null, "ios")),
                            "weight",
                            3))
                },
                new Object[] {
                    "unknown condition field",
                    rules(rule("https://example.com/x", Map.of("type", "device", "matchValue", "ios", "negate", true)))
                });
        for (Object[] bad : cases) {
            put(code, bad[1])
                    .expectStatus()
                    .isBadRequest()
                    .expectHeader()
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody()
                    .jsonPath("$.type")
                    .value(type -> assertThat((String) type)
                            .as((String) bad[0])
                            .startsWith("https://shortgate.dev/problems/"));
            assertThat(rows(code)).as((String) bad[0]).isZero();
        }
        web.put()
                .uri("/api/v1/links/nosuchcode/rules")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(rules(good))
                .exchange()
                .expectStatus()
                .isNotFound();
    }

    @Test
    void anUnknownFieldIsNamedInTheProblemAndWhatAGetAnswersCanBePutBack() {
        String code = create("https://example.com/round-trip", false);
        put(code, Map.of("rules", List.of(rule("https://example.com/android", condition("device", null, "android")))))
                .expectStatus()
                .isOk();
        put(code, Map.of("rules", List.of(Map.of("url", "https://example.com/x", "conditons", List.of()))))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-request")
                .jsonPath("$.field")
                .value(field -> assertThat((String) field).contains("conditons"));
        Map<?, ?> stored = web.get()
                .uri("/api/v1/links/" + code + "/rules")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        put(code, stored).expectStatus().isOk().expectBody(Map.class).isEqualTo(stored);
    }

    static Map<String, Object> rule(String url, Map<String, Object> condition) {
        return Map.of("url", url, "conditions", List.of(condition));
    }

    static Map<String, Object> rules(Map<String, Object> rule) {
        return Map.of("rules", List.of(rule));
    }

    long rows(String code) {
        return db.sql("SELECT COUNT(*) AS n FROM link_rules WHERE code = :code")
                .bind("code", code)
                .map(row -> ((Number) row.get("n")).longValue())
                .one()
                .block();
    }

    WebTestClient.ResponseSpec put(String code, Object body) {
        return web.put()
                .uri("/api/v1/links/" + code + "/rules")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    String location(String code, String query, String agent, String language) {
        WebTestClient.RequestHeadersSpec<?> request = web.get().uri("/" + code + (query == null ? "" : "?" + query));
        if (agent != null) {
            request = request.header(HttpHeaders.USER_AGENT, agent);
        }
        if (language != null) {
            request = request.header(HttpHeaders.ACCEPT_LANGUAGE, language);
        }
        return request.exchange()
                .expectStatus()
                .isFound()
                .returnResult(Void.class)
                .getResponseHeaders()
                .getFirst(HttpHeaders.LOCATION);
    }

    String create(String url, boolean forwardQuery) {
        return web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url, "forwardQuery", forwardQuery))
                .exchange()
                .expectStatus()
                .is2xxSuccessful()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
    }
}
