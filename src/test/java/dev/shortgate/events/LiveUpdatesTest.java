package dev.shortgate.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Live updates through the real HTTP stack on the embedded database: a token from {@code mercure-info} opens the
 * hub's event stream, and a new short URL and its visits arrive on Shlink's topics with Shlink's payloads.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + LiveUpdatesTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.events.mercure.heartbeat=200ms",
            "shortgate.shlink.cors-allowed-origins=https://ui.example",
            "spring.r2dbc.url=r2dbc:h2:mem:///liveupdates?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class LiveUpdatesTest {

    static final String KEY = "events-admin-key-0123456789";
    static final ParameterizedTypeReference<ServerSentEvent<String>> SSE = new ParameterizedTypeReference<>() {};

    @Autowired
    WebTestClient web;

    final JsonMapper json = JsonMapper.builder().build();

    String token() {
        Map<?, ?> info = web.get()
                .uri("/rest/v3/mercure-info")
                .header("X-Api-Key", KEY)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        assertThat(info.get("mercureHubUrl")).isEqualTo("https://sho.rt/.well-known/mercure");
        assertThat((String) info.get("jwtExpiration")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\+00:00");
        return (String) info.get("token");
    }

    Flux<ServerSentEvent<String>> stream(String token, String... topics) {
        StringBuilder uri = new StringBuilder("/.well-known/mercure?");
        Map<String, String> values = new java.util.HashMap<>();
        for (int i = 0; i < topics.length; i++) {
            uri.append("topic={t").append(i).append("}&");
            values.put("t" + i, topics[i]);
        }
        return web.get()
                .uri(uri.toString(), values)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(SSE)
                .getResponseBody()
                .filter(event -> event.data() != null);
    }

    String create(String url) {
        Map<?, ?> created = web.post()
                .uri("/rest/v3/short-urls")
                .header("X-Api-Key", KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("longUrl", url, "tags", java.util.List.of("live")))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        return (String) created.get("shortCode");
    }

    @Test
    void aNewShortUrlAndItsVisitArriveOnShlinksTopicsWithShlinksPayloads() {
        String token = token();
        Flux<ServerSentEvent<String>> newUrls = stream(token, "https://shlink.io/new-short-url");
        StepVerifier.create(newUrls.take(1))
                .then(() -> create("https://example.com/live/one"))
                .assertNext(event -> {
                    JsonNode shortUrl = json.readTree(event.data()).get("shortUrl");
                    assertThat(shortUrl.get("longUrl").asString()).isEqualTo("https://example.com/live/one");
                    assertThat(shortUrl.get("shortUrl").asString()).startsWith("https://sho.rt/");
                    assertThat(event.id()).startsWith("urn:uuid:");
                })
                .expectComplete()
                .verify(Duration.ofSeconds(20));

        String code = create("https://example.com/live/two");
        Flux<ServerSentEvent<String>> visits =
                stream(token, "https://shlink.io/new-visit/{shortCode}", "https://shlink.io/new-visit");
        StepVerifier.create(visits.take(2))
                .then(() -> web.get()
                        .uri("/" + code)
                        .header(HttpHeaders.USER_AGENT, "Mozilla/5.0 live-test")
                        .header(HttpHeaders.REFERER, "https://ref.example/")
                        .exchange()
                        .expectStatus()
                        .isFound())
                .assertNext(event -> assertVisit(event, code))
                .assertNext(event -> assertVisit(event, code))
                .expectComplete()
                .verify(Duration.ofSeconds(20));
    }

    @Test
    void aVisitOnASecondDomainCarriesTheBareCodeAndTheDomainsHost() {
        web.post()
                .uri("/api/v1/domains")
                .header("X-Api-Key", KEY)
                .bodyValue(Map.of("domain", "live.test"))
                .exchange();
        String token = token();
        Flux<ServerSentEvent<String>> newUrls = stream(token, "https://shlink.io/new-short-url");
        StepVerifier.create(newUrls.take(1))
                .then(() -> web.post()
                        .uri("/api/v1/links")
                        .header("X-Api-Key", KEY)
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(Map.of(
                                "url",
                                "https://example.com/live/two-domains",
                                "alias",
                                "on-live",
                                "domain",
                                "live.test"))
                        .exchange()
                        .expectStatus()
                        .isCreated())
                .assertNext(
                        event -> assertOnLiveDomain(json.readTree(event.data()).get("shortUrl")))
                .expectComplete()
                .verify(Duration.ofSeconds(20));

        // the per-code topic is the bare code's, as Shlink's
        Flux<ServerSentEvent<String>> visits = stream(token, "https://shlink.io/new-visit/on-live");
        StepVerifier.create(visits.take(1))
                .then(() -> web.get()
                        .uri("/on-live")
                        .header(HttpHeaders.HOST, "live.test")
                        .exchange()
                        .expectStatus()
                        .isFound())
                .assertNext(event -> {
                    JsonNode payload = json.readTree(event.data());
                    assertOnLiveDomain(payload.get("shortUrl"));
                    assertThat(payload.get("visit").get("visitedUrl").asString())
                            .isEqualTo("https://live.test/on-live");
                })
                .expectComplete()
                .verify(Duration.ofSeconds(20));
    }

    static void assertOnLiveDomain(JsonNode shortUrl) {
        assertThat(shortUrl.get("shortCode").asString()).isEqualTo("on-live");
        assertThat(shortUrl.get("domain").asString()).isEqualTo("live.test");
        assertThat(shortUrl.get("shortUrl").asString()).isEqualTo("https://live.test/on-live");
        assertThat(shortUrl.get("longUrl").asString()).isEqualTo("https://example.com/live/two-domains");
    }

    void assertVisit(ServerSentEvent<String> event, String code) {
        JsonNode payload = json.readTree(event.data());
        assertThat(payload.get("shortUrl").get("shortCode").asString()).isEqualTo(code);
        assertThat(payload.get("shortUrl").get("tags").get(0).asString()).isEqualTo("live");
        JsonNode visit = payload.get("visit");
        assertThat(visit.get("userAgent").asString()).isEqualTo("Mozilla/5.0 live-test");
        assertThat(visit.get("referer").asString()).isEqualTo("https://ref.example/");
        assertThat(visit.get("visitedUrl").asString()).isEqualTo("https://sho.rt/" + code);
        assertThat(visit.get("redirectUrl").asString()).isEqualTo("https://example.com/live/two");
        assertThat(visit.get("potentialBot").asBoolean()).isFalse();
        assertThat(visit.has("type")).isFalse();
    }

    @Test
    void anOrphanVisitArrivesWithItsType() {
        Flux<ServerSentEvent<String>> orphans = stream(token(), "https://shlink.io/new-orphan-visit");
        StepVerifier.create(orphans.take(1))
                .then(() -> web.get().uri("/NoSuchCode42").exchange())
                .assertNext(event -> {
                    JsonNode visit = json.readTree(event.data()).get("visit");
                    assertThat(visit.get("type").asString()).isEqualTo("invalid_short_url");
                    assertThat(visit.get("visitedUrl").asString()).isEqualTo("https://sho.rt/NoSuchCode42");
                })
                .expectComplete()
                .verify(Duration.ofSeconds(20));
    }

    @Test
    void theHubRefusesAMissingOrForgedTokenAndAMissingTopic() {
        web.get().uri("/.well-known/mercure?topic=*").exchange().expectStatus().isUnauthorized();
        web.get()
                .uri("/.well-known/mercure?topic=*&authorization=not.a.token")
                .exchange()
                .expectStatus()
                .isUnauthorized();
        String forged = new MercureTokens("another-secret-of-at-least-32-bytes!!", java.time.Clock.systemUTC())
                .issue(MercureTokens.ALL, java.time.Instant.now().plusSeconds(60));
        web.get()
                .uri("/.well-known/mercure?topic=*")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + forged)
                .exchange()
                .expectStatus()
                .isUnauthorized();
        web.get()
                .uri("/.well-known/mercure")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token())
                .exchange()
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void theHubAnswersAPreflightFromShlinksAllowedOriginAndRefusesOthers() {
        web.options()
                .uri("/.well-known/mercure?topic=*")
                .header(HttpHeaders.ORIGIN, "https://ui.example")
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "GET")
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, "authorization")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, "https://ui.example");
        web.options()
                .uri("/.well-known/mercure?topic=*")
                .header(HttpHeaders.ORIGIN, "https://evil.example")
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "GET")
                .exchange()
                .expectStatus()
                .isForbidden();
    }

    @Test
    void mercureInfoNeedsAnApiKey() {
        web.get().uri("/rest/v3/mercure-info").exchange().expectStatus().isUnauthorized();
    }
}
