package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The rest of what Shlink's clients and crawlers use, on the embedded H2 database: {@code robots.txt}, the
 * single-step create, the tracking pixel, and the list filters {@code excludeTags} and {@code domain}.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + ShlinkTrafficExtrasTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.visit.flush-interval=50ms",
            "shortgate.visit.counts-flush-interval=100ms",
            "spring.r2dbc.url=r2dbc:h2:mem:///shlinkextras?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class ShlinkTrafficExtrasTest {

    static final String KEY = "shlink-extras-key-0123456789";
    static final String API = "/rest/v3";

    WebTestClient anonymous;
    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        anonymous = client;
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void robotsAllowsOnlyCrawlableLinksInShlinksExactText() {
        create(Map.of("longUrl", "https://example.com/robots/1", "customSlug", "crawl-me", "crawlable", true));
        create(Map.of("longUrl", "https://example.com/robots/2", "customSlug", "hide-me"));

        String robots = anonymous
                .get()
                .uri("/robots.txt")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.TEXT_PLAIN)
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();

        assertThat(robots).isEqualTo("""
                        # For more information about the robots.txt standard, see:
                        # https://www.robotstxt.org/orig.html

                        User-agent: *
                        Allow: /crawl-me
                        Disallow: /""");
    }

    @Test
    void shortenTakesTheKeyFromTheQueryAndAnswersJsonOrText() {
        String json = anonymous
                .get()
                .uri(API + "/short-urls/shorten?apiKey=" + KEY + "&longUrl=https://example.com/shorten/json")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls_shorten.json", "get", "200", json);
        assertThat(json).contains("\"longUrl\":\"https://example.com/shorten/json\"");

        String text = anonymous
                .get()
                .uri(API + "/short-urls/shorten?apiKey=" + KEY + "&longUrl=https://example.com/shorten/text&format=txt")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.TEXT_PLAIN)
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(text).matches("https://sho\\.rt/[0-9A-Za-z]{7}");

        anonymous
                .get()
                .uri(API + "/short-urls/shorten?longUrl=https://example.com/shorten/nokey")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/invalid-api-key");
        anonymous
                .get()
                .uri(API + "/short-urls?apiKey=" + KEY)
                .exchange()
                .expectStatus()
                .isUnauthorized(); // only the single-step create takes the key in the query
        web.get()
                .uri(API + "/short-urls/shorten?longUrl=not-a-url")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/invalid-data");
    }

    @Test
    void trackingPixelRecordsAVisitOfALiveLinkAndIsAnsweredForAnUnknownCodeToo() {
        create(Map.of("longUrl", "https://example.com/pixel", "customSlug", "pixel-me"));

        byte[] gif = anonymous
                .get()
                .uri("/pixel-me/track")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentType(MediaType.IMAGE_GIF)
                .expectBody(byte[].class)
                .returnResult()
                .getResponseBody();
        assertThat(new String(gif, 0, 6, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("GIF89a");
        anonymous
                .get()
                .uri("/no-such-code/track")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentType(MediaType.IMAGE_GIF);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> web.get()
                .uri(API + "/short-urls/pixel-me")
                .exchange()
                .expectBody()
                .jsonPath("$.visitsSummary.total")
                .isEqualTo(1));
    }

    @Test
    void excludeTagsLeavesOutLinksWithAnyOrAllOfThemAndAnotherDomainListsNothing() {
        create(Map.of("longUrl", "https://example.com/x/a", "customSlug", "x-a", "tags", List.of("x-red")));
        create(Map.of("longUrl", "https://example.com/x/ab", "customSlug", "x-ab", "tags", List.of("x-red", "x-blue")));
        create(Map.of("longUrl", "https://example.com/x/none", "customSlug", "x-none"));
        String base = API + "/short-urls?searchTerm=example.com/x/&orderBy=shortCode-ASC&itemsPerPage=50";

        assertThat(codes(base + "&excludeTags[]=x-red&excludeTags[]=x-blue")).containsExactly("x-none");
        assertThat(codes(base + "&excludeTags[]=x-red&excludeTags[]=x-blue&excludeTagsMode=all"))
                .containsExactly("x-a", "x-none");
        assertThat(codes(base + "&domain=DEFAULT")).containsExactly("x-a", "x-ab", "x-none");
        assertThat(codes(base + "&domain=sho.rt")).containsExactly("x-a", "x-ab", "x-none");
        assertThat(codes(base + "&domain=other.example")).isEmpty();
        web.get()
                .uri(API + "/visits/non-orphan?domain=other.example")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(0);
        web.get()
                .uri(API + "/short-urls/x-a/visits?domain=other.example")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/short-url-not-found");
    }

    @Test
    @SuppressWarnings("unchecked")
    void apiKeyNameListsOnlyTheShortUrlsThatKeyCreated() {
        Map<String, Object> key = web.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "extras-creator", "scope", "create"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        web.mutate()
                .defaultHeader("X-Api-Key", (String) key.get("key"))
                .build()
                .post()
                .uri(API + "/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("longUrl", "https://example.com/k/mine", "customSlug", "k-mine"))
                .exchange()
                .expectStatus()
                .isOk();
        create(Map.of("longUrl", "https://example.com/k/admin", "customSlug", "k-admin"));
        String base = API + "/short-urls?searchTerm=example.com/k/&orderBy=shortCode-ASC";

        assertThat(codes(base)).containsExactly("k-admin", "k-mine");
        assertThat(codes(base + "&apiKeyName=extras-creator")).containsExactly("k-mine");
        assertThat(codes(base + "&apiKeyName=no-such-key")).isEmpty();
    }

    private void create(Map<String, Object> body) {
        web.post()
                .uri(API + "/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isOk();
    }

    @SuppressWarnings("unchecked")
    private List<String> codes(String uri) {
        Map<String, Object> body = web.get()
                .uri(uri)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        List<Map<String, Object>> data =
                (List<Map<String, Object>>) ((Map<String, Object>) body.get("shortUrls")).get("data");
        return data.stream().map(row -> (String) row.get("shortCode")).toList();
    }
}
