package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
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

/**
 * Shlink's REST API v3 on the embedded H2 database, through the real HTTP stack. Every answer with a body is checked
 * against the schema Shlink documents for it (its pinned swagger).
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + ShlinkApiTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.visit.flush-interval=50ms",
            "shortgate.visit.counts-flush-interval=100ms",
            "shortgate.shlink.cors-allowed-origins=https://ui.example",
            "shortgate.shlink.cors-max-age=10m",
            "spring.r2dbc.url=r2dbc:h2:mem:///shlinkapi?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class ShlinkApiTest {

    static final String KEY = "shlink-admin-key-0123456789";
    static final String API = "/rest/v3";

    WebTestClient anonymous;
    WebTestClient web;

    @Autowired
    DatabaseClient db;

    @Autowired
    void client(WebTestClient client) {
        anonymous = client;
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void healthIsOpenAndPassesWithTheShlinkVersion() {
        for (String path : List.of("/rest/health", "/rest/v3/health")) {
            String body = anonymous
                    .get()
                    .uri(path)
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectHeader()
                    .contentType("application/health+json")
                    .expectBody(String.class)
                    .returnResult()
                    .getResponseBody();
            ShlinkSchemas.assertValid("health.json", "get", "200", body);
            assertThat(body).contains("\"status\":\"pass\"").contains("\"version\":\"5.1.5\"");
        }
    }

    @Test
    void missingOrWrongKeyIsShlinksInvalidApiKey() {
        String body = anonymous
                .get()
                .uri(API + "/short-urls")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertDefinition("Error.json", body);
        assertThat(body).contains("\"type\":\"https://shlink.io/api/error/invalid-api-key\"");
        anonymous
                .get()
                .uri(API + "/short-urls")
                .header("X-Api-Key", "not-a-key-of-this-server")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/invalid-api-key");
    }

    @Test
    void createWithSlugTagsAndTitleAnswersShlinksShortUrl() {
        String body = create(Map.of(
                        "longUrl",
                        "https://example.com/shlink/create",
                        "customSlug",
                        "sl-create",
                        "tags",
                        List.of("launch", "tech", "launch"),
                        "title",
                        "The launch",
                        "crawlable",
                        true,
                        "maxVisits",
                        500,
                        "validUntil",
                        "2099-01-01T00:00:00+02:00"))
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls.json", "post", "200", body);
        assertThat(body)
                .contains(
                        "\"shortCode\":\"sl-create\"",
                        "\"shortUrl\":\"https://sho.rt/sl-create\"",
                        "\"tags\":[\"launch\",\"tech\"]",
                        "\"title\":\"The launch\"",
                        "\"crawlable\":true",
                        "\"validUntil\":\"2098-12-31T22:00:00+00:00\"",
                        "\"maxVisits\":500",
                        "\"forwardQuery\":true",
                        "\"visitsSummary\":{\"total\":0,\"nonBots\":0,\"bots\":0}",
                        "\"domain\":null");
        anonymous
                .get()
                .uri("/sl-create")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals(HttpHeaders.LOCATION, "https://example.com/shlink/create");
    }

    @Test
    void generatedCodeHasTheAskedLength() {
        create(Map.of("longUrl", "https://example.com/shlink/length", "shortCodeLength", 5))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.shortCode")
                .value(code -> assertThat((String) code).hasSize(5));
    }

    @Test
    void takenSlugIsNonUniqueSlugAndWritesNothing() {
        create(Map.of("longUrl", "https://example.com/shlink/taken-1", "customSlug", "sl-taken"))
                .expectStatus()
                .isOk();
        String body = create(Map.of(
                        "longUrl",
                        "https://example.com/shlink/taken-2",
                        "customSlug",
                        "sl-taken",
                        "tags",
                        List.of("never-made")))
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls.json", "post", "400", body);
        assertThat(body)
                .contains("\"type\":\"https://shlink.io/api/error/non-unique-slug\"", "\"customSlug\":\"sl-taken\"");
        assertThat(count("SELECT COUNT(*) AS n FROM tag WHERE name = 'never-made'"))
                .isZero();
    }

    @Test
    void invalidFieldsAreListedAsInvalidElementsAndNothingIsWritten() {
        String body = create(Map.of(
                        "longUrl",
                        "https://example.com/shlink/invalid",
                        "maxVisits",
                        -1,
                        "validSince",
                        "2099-01-01T00:00:00Z",
                        "validUntil",
                        "not a date"))
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls.json", "post", "400", body);
        assertThat(body)
                .contains("\"type\":\"https://shlink.io/api/error/invalid-data\"")
                .contains("\"maxVisits\"", "\"validSince\"", "\"validUntil\"");
        create(Map.of("longUrl", "javascript:alert(1)"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/invalid-data")
                .jsonPath("$.invalidElements[0]")
                .isEqualTo("longUrl");
        assertThat(count("SELECT COUNT(*) AS n FROM link_all WHERE long_url LIKE '%shlink/invalid%'"))
                .isZero();
    }

    @Test
    void listPaginatesSearchesFiltersByTagAndOrders() {
        for (int i = 1; i <= 3; i++) {
            create(Map.of(
                            "longUrl",
                            "https://example.com/shlink/list/" + i,
                            "customSlug",
                            "sl-list-" + i,
                            "tags",
                            i == 2 ? List.of("listed", "second") : List.of("listed")))
                    .expectStatus()
                    .isOk();
        }
        String body = web.get()
                .uri(API + "/short-urls?tags[]=listed&orderBy=shortCode-ASC&itemsPerPage=2&page=1")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls.json", "get", "200", body);
        web.get()
                .uri(API + "/short-urls?tags[]=listed&orderBy=shortCode-ASC&itemsPerPage=2&page=2")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.shortUrls.data.length()")
                .isEqualTo(1)
                .jsonPath("$.shortUrls.data[0].shortCode")
                .isEqualTo("sl-list-3")
                .jsonPath("$.shortUrls.pagination.currentPage")
                .isEqualTo(2)
                .jsonPath("$.shortUrls.pagination.pagesCount")
                .isEqualTo(2)
                .jsonPath("$.shortUrls.pagination.itemsPerPage")
                .isEqualTo(2)
                .jsonPath("$.shortUrls.pagination.itemsInCurrentPage")
                .isEqualTo(1)
                .jsonPath("$.shortUrls.pagination.totalItems")
                .isEqualTo(3);
        web.get()
                .uri(API + "/short-urls?tags[]=listed&tags[]=second&tagsMode=all")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.shortUrls.data.length()")
                .isEqualTo(1)
                .jsonPath("$.shortUrls.data[0].shortCode")
                .isEqualTo("sl-list-2");
        web.get()
                .uri(API + "/short-urls?searchTerm=SHLINK/LIST/3")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.shortUrls.data.length()")
                .isEqualTo(1)
                .jsonPath("$.shortUrls.data[0].shortCode")
                .isEqualTo("sl-list-3");
        web.get()
                .uri(API + "/short-urls?orderBy=sideways")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/invalid-data");
    }

    @Test
    void getUnknownIsShortUrlNotFound() {
        String body = web.get()
                .uri(API + "/short-urls/sl-nowhere")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls_{shortCode}.json", "get", "404", body);
        assertThat(body)
                .contains(
                        "\"type\":\"https://shlink.io/api/error/short-url-not-found\"", "\"shortCode\":\"sl-nowhere\"");
    }

    @Test
    void editChangesTargetTagsTitleAndLimits() {
        create(Map.of("longUrl", "https://example.com/shlink/edit", "customSlug", "sl-edit", "tags", List.of("old")))
                .expectStatus()
                .isOk();
        String body = web.patch()
                .uri(API + "/short-urls/sl-edit")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of(
                        "longUrl",
                        "https://example.com/shlink/edited",
                        "tags",
                        List.of("new"),
                        "title",
                        "Edited",
                        "maxVisits",
                        9,
                        "forwardQuery",
                        false))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls_{shortCode}.json", "patch", "200", body);
        assertThat(body)
                .contains(
                        "\"longUrl\":\"https://example.com/shlink/edited\"",
                        "\"tags\":[\"new\"]",
                        "\"title\":\"Edited\"",
                        "\"maxVisits\":9",
                        "\"forwardQuery\":false");
        anonymous
                .get()
                .uri("/sl-edit?x=1")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals(HttpHeaders.LOCATION, "https://example.com/shlink/edited");
        web.patch()
                .uri(API + "/short-urls/sl-edit")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("title", "Only the title"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.title")
                .isEqualTo("Only the title")
                .jsonPath("$.tags[0]")
                .isEqualTo("new")
                .jsonPath("$.longUrl")
                .isEqualTo("https://example.com/shlink/edited");
    }

    @Test
    void deleteAnswers204AndTheCodeStopsRedirecting() {
        create(Map.of("longUrl", "https://example.com/shlink/delete", "customSlug", "sl-delete"))
                .expectStatus()
                .isOk();
        web.delete()
                .uri(API + "/short-urls/sl-delete")
                .exchange()
                .expectStatus()
                .isNoContent();
        web.get().uri(API + "/short-urls/sl-delete").exchange().expectStatus().isNotFound();
        anonymous.get().uri("/sl-delete").exchange().expectStatus().isNotFound();
        web.delete()
                .uri(API + "/short-urls/sl-delete")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/short-url-not-found");
    }

    @Test
    void tagsAreListedCountedRenamedAndDeleted() {
        create(Map.of(
                        "longUrl",
                        "https://example.com/shlink/tags",
                        "customSlug",
                        "sl-tags",
                        "tags",
                        List.of("tg-alpha", "tg-beta")))
                .expectStatus()
                .isOk();
        String list = web.get()
                .uri(API + "/tags?searchTerm=tg-")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_tags.json", "get", "200", list);
        assertThat(list).contains("\"data\":[\"tg-alpha\",\"tg-beta\"]");
        String stats = web.get()
                .uri(API + "/tags/stats?searchTerm=tg-alpha")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_tags_stats.json", "get", "200", stats);
        assertThat(stats).contains("\"tag\":\"tg-alpha\"", "\"shortUrlsCount\":1");

        web.put()
                .uri(API + "/tags")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("oldName", "tg-alpha", "newName", "tg-gamma"))
                .exchange()
                .expectStatus()
                .isNoContent();
        String conflict = web.put()
                .uri(API + "/tags")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("oldName", "tg-gamma", "newName", "tg-beta"))
                .exchange()
                .expectStatus()
                .isEqualTo(409)
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_tags.json", "put", "409", conflict);
        assertThat(conflict).contains("https://shlink.io/api/error/tag-conflict");
        web.put()
                .uri(API + "/tags")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("oldName", "tg-missing", "newName", "tg-other"))
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/tag-not-found")
                .jsonPath("$.tag")
                .isEqualTo("tg-missing");

        web.delete().uri(API + "/tags?tags[]=tg-beta").exchange().expectStatus().isNoContent();
        web.get()
                .uri(API + "/short-urls/sl-tags")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags.length()")
                .isEqualTo(1)
                .jsonPath("$.tags[0]")
                .isEqualTo("tg-gamma");
    }

    @Test
    void visitsAreListedPerShortUrlPerTagAndInTheOverview() {
        create(Map.of(
                        "longUrl",
                        "https://example.com/shlink/visits",
                        "customSlug",
                        "sl-visits",
                        "tags",
                        List.of("visited")))
                .expectStatus()
                .isOk();
        anonymous
                .get()
                .uri("/sl-visits")
                .header(
                        HttpHeaders.USER_AGENT,
                        "Mozilla/5.0 (X11; Linux x86_64) "
                                + "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36")
                .header(HttpHeaders.REFERER, "https://news.example/item")
                .exchange()
                .expectStatus()
                .isFound();
        anonymous.get().uri("/sl-visits").exchange().expectStatus().isFound();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> web.get()
                .uri(API + "/short-urls/sl-visits/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(2));
        String body = web.get()
                .uri(API + "/short-urls/sl-visits/visits?page=1&itemsPerPage=1")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls_{shortCode}_visits.json", "get", "200", body);
        assertThat(body).contains("\"pagesCount\":2", "\"visitedUrl\":\"https://sho.rt/sl-visits\"");

        String tagVisits = web.get()
                .uri(API + "/tags/visited/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_tags_{tag}_visits.json", "get", "200", tagVisits);
        assertThat(tagVisits).contains("\"totalItems\":2", "\"referer\":\"https://news.example/item\"");
        web.get()
                .uri(API + "/tags/unknown-tag/visits")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/tag-not-found");

        String nonOrphan = web.get()
                .uri(API + "/visits/non-orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits_non-orphan.json", "get", "200", nonOrphan);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> web.get()
                .uri(API + "/short-urls/sl-visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visitsSummary.total")
                .isEqualTo(2));
        String overview = web.get()
                .uri(API + "/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits.json", "get", "200", overview);
        assertThat(overview).contains("\"orphanVisits\":{\"total\":"); // counted in OrphanVisitsTest

        web.get()
                .uri(API + "/short-urls/sl-nowhere/visits")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/short-url-not-found");
    }

    @Test
    void orphanVisitsAnswerShlinksShapeAndCheckTheType() {
        String body = web.get()
                .uri(API + "/visits/orphan")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits_orphan.json", "get", "200", body);
        String invalid = web.get()
                .uri(API + "/visits/orphan?type=sideways")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_visits_orphan.json", "get", "400", invalid);
    }

    @Test
    void domainsListTheBaseUrlHostAndMercureInfoGivesAHubAndAToken() {
        String domains = web.get()
                .uri(API + "/domains")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_domains.json", "get", "200", domains);
        assertThat(domains).contains("\"domain\":\"sho.rt\"", "\"isDefault\":true");
        String mercure = web.get()
                .uri(API + "/mercure-info")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v2_mercure-info.json", "get", "200", mercure);
        assertThat(mercure).contains("/.well-known/mercure", "\"token\"", "\"jwtExpiration\"");
    }

    @Test
    void preflightFromAnAllowedOriginIs204WithMethodsHeadersAndMaxAge() {
        anonymous
                .options()
                .uri(API + "/short-urls")
                .header(HttpHeaders.ORIGIN, "https://ui.example")
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "PATCH")
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, "x-api-key, content-type")
                .exchange()
                .expectStatus()
                .isNoContent()
                .expectHeader()
                .valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, "https://ui.example")
                .expectHeader()
                .value(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, m -> assertThat(m)
                        .contains("PATCH"))
                .expectHeader()
                .valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS, "x-api-key, content-type")
                .expectHeader()
                .valueEquals(HttpHeaders.ACCESS_CONTROL_MAX_AGE, "600");
        web.get()
                .uri(API + "/short-urls")
                .header(HttpHeaders.ORIGIN, "https://ui.example")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, "https://ui.example");
        anonymous
                .get()
                .uri(API + "/short-urls")
                .header(HttpHeaders.ORIGIN, "https://ui.example")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectHeader()
                .valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, "https://ui.example");
    }

    @Test
    void anotherOriginGetsNoCorsHeaders() {
        anonymous
                .options()
                .uri(API + "/short-urls")
                .header(HttpHeaders.ORIGIN, "https://evil.example")
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "GET")
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectHeader()
                .doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN);
        web.get()
                .uri(API + "/short-urls")
                .header(HttpHeaders.ORIGIN, "https://evil.example")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN);
    }

    @Test
    void keysKeepTheirScopesUnderTheShlinkApi() {
        String reader = newKey("shlink-reader", "read");
        String creator = newKey("shlink-creator", "create");
        create(Map.of("longUrl", "https://example.com/shlink/admins", "customSlug", "sl-admins"))
                .expectStatus()
                .isOk();
        WebTestClient asReader =
                anonymous.mutate().defaultHeader("X-Api-Key", reader).build();
        WebTestClient asCreator =
                anonymous.mutate().defaultHeader("X-Api-Key", creator).build();

        asReader.get()
                .uri(API + "/short-urls/sl-admins")
                .exchange()
                .expectStatus()
                .isOk();
        asReader.patch()
                .uri(API + "/short-urls/sl-admins")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("title", "nope"))
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/forbidden-operation");
        asReader.post()
                .uri(API + "/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("longUrl", "https://example.com/shlink/reader"))
                .exchange()
                .expectStatus()
                .isForbidden();
        asReader.put()
                .uri(API + "/tags")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("oldName", "a", "newName", "b"))
                .exchange()
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/forbidden-tag-operation");

        asCreator
                .post()
                .uri(API + "/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("longUrl", "https://example.com/shlink/creator", "customSlug", "sl-creator"))
                .exchange()
                .expectStatus()
                .isOk();
        asCreator
                .get()
                .uri(API + "/short-urls/sl-admins")
                .exchange()
                .expectStatus()
                .isNotFound();
        asCreator
                .get()
                .uri(API + "/short-urls")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.shortUrls.data.length()")
                .isEqualTo(1)
                .jsonPath("$.shortUrls.data[0].shortCode")
                .isEqualTo("sl-creator");
    }

    private WebTestClient.ResponseSpec create(Map<String, Object> body) {
        return web.post()
                .uri(API + "/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private String newKey(String name, String scope) {
        byte[] body = web.post()
                .uri("/api/v1/keys")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", name, "scope", scope))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody();
        String json = new String(body, StandardCharsets.UTF_8);
        return json.replaceAll(".*\"key\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    }

    private long count(String sql) {
        return db.sql(sql).map(row -> ((Number) row.get("n")).longValue()).one().block();
    }
}
