package dev.shortgate.link.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The shorten API on the embedded H2 database, through the real HTTP stack. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=test-admin-key-0123456789",
            "spring.r2dbc.url=r2dbc:h2:mem:///linkapi-${shortgate.codegen.strategy:hash}?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE",
            "shortgate.base-url=https://sho.rt",
            "shortgate.security.url.own-domains=links.example.org",
            "shortgate.security.url.deny-hosts=evil.example"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class LinkApiTest {

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        this.web = client.mutate()
                .defaultHeader("X-Api-Key", "test-admin-key-0123456789")
                .build();
    }

    @Autowired
    DatabaseClient db;

    @Test
    void createAnswers201WithLocationAndShortUrl() {
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://Example.com:443/Create/Me?q=1"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectHeader()
                .value("Location", location -> assertThat(location).matches("/api/v1/links/[0-9a-zA-Z]{7}"))
                .expectBody()
                .jsonPath("$.code")
                .value(code -> assertThat((String) code).matches("[0-9a-zA-Z]{7}"))
                .jsonPath("$.url")
                .isEqualTo("https://example.com/Create/Me?q=1")
                .jsonPath("$.shortUrl")
                .value(url -> assertThat((String) url).startsWith("https://sho.rt/"))
                .jsonPath("$.createdAt")
                .exists();
    }

    @Test
    void sameUrlAgainAnswers200WithTheSameCode() {
        String first = create(Map.of("url", "https://example.com/again"))
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
        create(Map.of("url", "https://EXAMPLE.com/again"))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo(first);
        assertThat(rows("https://example.com/again")).isEqualTo(1);
    }

    @Test
    void requestedLengthGivesACodeOfThatLength() {
        create(Map.of("url", "https://example.com/short", "length", 3))
                .expectStatus()
                .isCreated()
                .expectBody()
                .jsonPath("$.code")
                .value(code -> assertThat((String) code).hasSize(3));
    }

    @ParameterizedTest
    @CsvSource({"0", "9", "-1"})
    void lengthOutsideOneToEightIsRejectedWithoutARow(int length) {
        String url = "https://example.com/length/" + length;
        create(Map.of("url", url, "length", length))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-length");
        assertThat(rows(url)).isZero();
    }

    @Test
    void aliasMakesACustomCodeAndATakenAliasIs409() {
        create(Map.of("url", "https://example.com/alias-a", "alias", "launch_2026"))
                .expectStatus()
                .isCreated()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("launch_2026")
                .jsonPath("$.alias")
                .isEqualTo(true);
        create(Map.of("url", "https://example.com/alias-a", "alias", "launch_2026"))
                .expectStatus()
                .isOk();
        create(Map.of("url", "https://example.com/alias-b", "alias", "launch_2026"))
                .expectStatus()
                .isEqualTo(409)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/alias-taken");
        assertThat(rows("https://example.com/alias-b")).isZero();
    }

    @ParameterizedTest
    @CsvSource({
        "api",
        "Actuator",
        "has space",
        "dot.ted",
        "slash/ed",
        "toolong-toolong-toolong-toolong-toolong-toolong-toolong-toolong-x"
    })
    void invalidOrReservedAliasIsRejectedWithoutARow(String alias) {
        String url = "https://example.com/bad-alias/" + alias.hashCode();
        create(Map.of("url", url, "alias", alias))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-alias")
                .jsonPath("$.field")
                .isEqualTo("alias");
        assertThat(rows(url)).isZero();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "javascript:alert(1)|url-scheme-not-allowed",
                "ftp://example.com/file|url-scheme-not-allowed",
                "data:text/html,hi|url-scheme-not-allowed",
                "http://|invalid-url",
                "https:///path|invalid-url",
                "http://user@example.com/|url-userinfo-not-allowed",
                "https://example.com\\\\evil|invalid-url",
                "https://exa mple.com/|invalid-url",
                "https://sho.rt/loop|url-self-link",
                "https://SHO.RT.:8443/loop|url-self-link",
                "example.com/no-scheme|invalid-url",
                "vbscript:msgbox(1)|url-scheme-not-allowed",
                "file:///etc/passwd|url-scheme-not-allowed",
                "https:\\\\evil.com|invalid-url",
                "//evil.com|invalid-url",
                "http:/x|invalid-url",
                "http://127.0.0.1/admin|url-host-not-allowed",
                "http://[::1]/|url-host-not-allowed",
                "http://10.0.0.7/|url-host-not-allowed",
                "http://169.254.169.254/latest/meta-data|url-host-not-allowed",
                "http://2130706433/|url-host-not-allowed",
                "http://0177.0.0.1/|url-host-not-allowed",
                "http://0x7f.1/|url-host-not-allowed",
                "http://[::ffff:127.0.0.1]/|url-host-not-allowed",
                "http://localhost:8080/|url-host-not-allowed",
                "https://go.links.example.org/x|url-self-link",
                "https://bit.ly/abc|url-shortener-not-allowed",
                "https://www.TinyURL.com./abc|url-shortener-not-allowed",
                "https://evil.example/|url-host-denied",
                "https://cdn.evil.example:8443/|url-host-denied",
                "https://\u0430pple.com/|url-homograph",
                "https://xn--pple-43d.com/|url-homograph"
            })
    void badUrlIsRejectedWithItsProblemTypeAndNoRow(String url, String type) {
        long before = allRows();
        create(Map.of("url", url))
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/" + type)
                .jsonPath("$.field")
                .isEqualTo("url");
        assertThat(allRows()).isEqualTo(before);
    }

    @Test
    void controlCharactersAndOverlongUrlsAreRejectedWithoutARow() {
        long before = allRows();
        create(Map.of("url", "https://example.com/a\r\nSet-Cookie:x"))
                .expectStatus()
                .isBadRequest();
        create(Map.of("url", "https://example.com/a\u0000b")).expectStatus().isBadRequest();
        create(Map.of("url", "https://example.com/" + "a".repeat(4100)))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/url-too-long");
        assertThat(allRows()).isEqualTo(before);
    }

    @Test
    void missingUrlIsRejected() {
        create(Map.of("length", 5))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-url");
    }

    @Test
    void getAnswersTheLinkOr404Problem() {
        create(Map.of("url", "https://example.com/get-me", "alias", "get-me"))
                .expectStatus()
                .isCreated();
        web.get()
                .uri("/api/v1/links/get-me")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.url")
                .isEqualTo("https://example.com/get-me")
                .jsonPath("$.shortUrl")
                .isEqualTo("https://sho.rt/get-me");
        web.get()
                .uri("/api/v1/links/no-such-link")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/link-not-found");
    }

    @Test
    void batchAnswersResultsInInputOrderWithPerItemProblems() {
        List<Map<String, Object>> items = List.of(
                Map.of("url", "https://example.com/batch/1"),
                Map.of("url", "javascript:alert(1)"),
                Map.of("url", "https://example.com/batch/1"),
                Map.of("url", "https://example.com/batch/2", "alias", "batch-two"),
                Map.of("url", "https://example.com/batch/3", "alias", "batch-two"));
        web.post()
                .uri("/api/v1/links/batch")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("links", items))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.results.length()")
                .isEqualTo(5)
                .jsonPath("$.results[0].url")
                .isEqualTo("https://example.com/batch/1")
                .jsonPath("$.results[1].type")
                .isEqualTo("https://shortgate.dev/problems/url-scheme-not-allowed")
                .jsonPath("$.results[1].index")
                .isEqualTo(1)
                .jsonPath("$.results[2].status")
                .isEqualTo(200)
                .jsonPath("$.results[3].code")
                .isEqualTo("batch-two")
                .jsonPath("$.results[4].status")
                .isEqualTo(409);
        assertThat(rows("https://example.com/batch/3")).isZero();
    }

    @Test
    void batchFindsExistingLinksMakesEachNewOneOnceAndGivesRepeatsTheSameCode() {
        String existing = create(Map.of("url", "https://example.com/together/existing"))
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            items.add(Map.of("url", "https://example.com/together/" + i));
        }
        items.add(Map.of("url", "https://example.com/together/existing"));
        items.add(Map.of("url", "https://example.com/together/7"));
        items.add(Map.of("url", "https://example.com/together/7", "length", 5));

        List<Map<String, Object>> results = batchResults(items);

        assertThat(results).hasSize(303);
        for (int i = 0; i < 300; i++) {
            assertThat(results.get(i))
                    .as("item " + i)
                    .containsEntry("status", 201)
                    .containsEntry("url", "https://example.com/together/" + i);
        }
        assertThat(results.stream().limit(300).map(r -> r.get("code")).distinct())
                .hasSize(300);
        assertThat(results.get(300)).containsEntry("status", 200).containsEntry("code", existing);
        assertThat(results.get(301))
                .containsEntry("status", 200)
                .containsEntry("code", results.get(7).get("code"));
        assertThat(results.get(302)).containsEntry("status", 201);
        assertThat(results.get(302).get("code").toString()).hasSize(5);
        assertThat(rows("https://example.com/together/7")).isEqualTo(2); // one per length
        assertThat(rows("https://example.com/together/299")).isEqualTo(1);
        for (int i : new int[] {0, 150, 299}) {
            web.get()
                    .uri("/" + results.get(i).get("code"))
                    .exchange()
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .valueEquals("Location", "https://example.com/together/" + i);
        }
        // the same batch again finds every link
        assertThat(batchResults(items)).allSatisfy(result -> assertThat(result).containsEntry("status", 200));
        assertThat(rows("https://example.com/together/150")).isEqualTo(1);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> batchResults(List<Map<String, Object>> items) {
        return (List<Map<String, Object>>) web.post()
                .uri("/api/v1/links/batch")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("links", items))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("results");
    }

    @Test
    void batchOfMoreThan1000OrNoItemsIsRejected() {
        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            tooMany.add(Map.of("url", "https://example.com/many/" + i));
        }
        web.post()
                .uri("/api/v1/links/batch")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("links", tooMany))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-request");
        web.post()
                .uri("/api/v1/links/batch")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("links", List.of()))
                .exchange()
                .expectStatus()
                .isBadRequest();
        assertThat(rows("https://example.com/many/0")).isZero();
    }

    @Test
    void nativeCreateStoresTagsAndListShowsThem() {
        Map<?, ?> created = create(
                        Map.of("url", "https://example.com/tagged", "tags", List.of(" news ", "a", "news", " ")))
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        assertThat(created.get("tags")).isEqualTo(List.of("a", "news"));
        String code = created.get("code").toString();
        assertThat(tagRows("news")).isEqualTo(1);
        web.get()
                .uri("/api/v1/links/" + code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags")
                .isEqualTo(List.of("a", "news"));
        web.get()
                .uri("/api/v1/links?limit=100")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.links[?(@.code == '" + code + "')].tags[*]")
                .isEqualTo(List.of("a", "news"));
        // the same tables Shlink's API reads: its short URL shows them too
        web.get()
                .uri("/rest/v3/short-urls/" + code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags")
                .isEqualTo(List.of("a", "news"));
    }

    @Test
    void linkWithoutTagsShowsAnEmptyList() {
        create(Map.of("url", "https://example.com/untagged"))
                .expectStatus()
                .isCreated()
                .expectBody()
                .jsonPath("$.tags")
                .isEqualTo(List.of());
    }

    @Test
    void foundLinkKeepsItsOwnTags() {
        create(Map.of("url", "https://example.com/found-tags", "tags", List.of("first")))
                .expectStatus()
                .isCreated();
        create(Map.of("url", "https://example.com/found-tags", "tags", List.of("second")))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags")
                .isEqualTo(List.of("first"));
        assertThat(rows("https://example.com/found-tags")).isEqualTo(1);
        assertThat(tagRows("second")).isZero();
    }

    @Test
    void unknownFieldAnswersProblemAndWritesNoRow() {
        long before = allRows();
        create(Map.of("url", "https://example.com/unknown-field", "tgas", List.of("misspelt")))
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-request")
                .jsonPath("$.field")
                .isEqualTo("tgas")
                .jsonPath("$.detail")
                .value(detail -> assertThat((String) detail).contains("'tgas'").contains("tags"));
        assertThat(rows("https://example.com/unknown-field")).isZero();
        assertThat(allRows()).isEqualTo(before);
        assertThat(tagRows("misspelt")).isZero();
    }

    @ParameterizedTest
    @CsvSource({"[1]", "[null]", "'\"a\"'", "[\"%s\"]"})
    void tagsThatAreNotShortTextsAnswerProblemAndWriteNoRow(String tags) {
        String json = "{\"url\":\"https://example.com/bad-tags\",\"tags\":" + tags.formatted("x".repeat(256)) + "}";
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json)
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-request")
                .jsonPath("$.field")
                .isEqualTo("tags");
        assertThat(rows("https://example.com/bad-tags")).isZero();
    }

    @Test
    void batchItemWithUnknownFieldAnswersItsOwnProblemWithItsIndex() {
        List<Map<String, Object>> items = List.of(
                Map.of("url", "https://example.com/batch-tags/0", "tags", List.of("batch")),
                Map.of("url", "https://example.com/batch-tags/1", "colour", "blue"),
                Map.of("url", "https://example.com/batch-tags/2", "alias", "batch-tagged", "tags", List.of("batch")));
        List<Map<String, Object>> results = batchResults(items);
        assertThat(results.get(0)).containsEntry("status", 201).containsEntry("tags", List.of("batch"));
        assertThat(results.get(1))
                .containsEntry("type", "https://shortgate.dev/problems/invalid-request")
                .containsEntry("field", "colour")
                .containsEntry("index", 1);
        assertThat(results.get(2)).containsEntry("status", 201).containsEntry("tags", List.of("batch"));
        assertThat(rows("https://example.com/batch-tags/1")).isZero();
        // the same batch again finds the links, with the tags they were made with
        List<Map<String, Object>> again = batchResults(List.of(
                Map.of("url", "https://example.com/batch-tags/0"),
                Map.of("url", "https://example.com/batch-tags/2", "alias", "batch-tagged")));
        assertThat(again)
                .allSatisfy(result ->
                        assertThat(result).containsEntry("status", 200).containsEntry("tags", List.of("batch")));
    }

    @Test
    void unknownTopLevelBatchFieldAnswersProblem() {
        web.post()
                .uri("/api/v1/links/batch")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("links", List.of(Map.of("url", "https://example.com/batch-top")), "dryRun", true))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.field")
                .isEqualTo("dryRun");
        assertThat(rows("https://example.com/batch-top")).isZero();
    }

    @Test
    void patchReplacesTheTagsAndNullTakesThemAllOff() {
        String code = createdCode(Map.of("url", "https://example.com/patch-tags", "tags", List.of("old", "kept")));
        patch(code, Map.of("tags", List.of(" kept ", "new", "kept")))
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags")
                .isEqualTo(List.of("kept", "new"));
        assertThat(tagsOf(code)).containsExactly("kept", "new");
        Map<String, Object> clear = new HashMap<>();
        clear.put("tags", null);
        patch(code, clear).expectStatus().isOk().expectBody().jsonPath("$.tags").isEqualTo(List.of());
        assertThat(tagsOf(code)).isEmpty();
        assertThat(tagExists("old"))
                .as("a tag outlives its last link, as in Shlink")
                .isTrue();
        // the link itself is as it was, and still redirects
        web.get()
                .uri("/" + code)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/patch-tags");
    }

    @Test
    void patchWithBadTagsAnswersProblemAndChangesNeitherTheLinkNorItsTags() {
        String code = createdCode(Map.of("url", "https://example.com/patch-bad-tags", "tags", List.of("a")));
        patch(code, Map.of("url", "https://example.com/moved", "tags", List.of(1)))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/invalid-request")
                .jsonPath("$.field")
                .isEqualTo("tags");
        web.get()
                .uri("/api/v1/links/" + code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.url")
                .isEqualTo("https://example.com/patch-bad-tags")
                .jsonPath("$.tags")
                .isEqualTo(List.of("a"));
    }

    @Test
    void deletedLinkLosesItsTagsWhileTheTagsStay() {
        String code = createdCode(Map.of("url", "https://example.com/delete-tags", "tags", List.of("gone-with-it")));
        assertThat(tagRows("gone-with-it")).isEqualTo(1);
        web.delete().uri("/api/v1/links/" + code).exchange().expectStatus().isNoContent();
        assertThat(tagRows("gone-with-it")).isZero();
        assertThat(tagExists("gone-with-it")).isTrue();
    }

    private String createdCode(Map<String, Object> body) {
        return create(body)
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
    }

    private WebTestClient.ResponseSpec patch(String code, Map<String, Object> body) {
        return web.patch()
                .uri("/api/v1/links/" + code)
                .contentType(MediaType.parseMediaType("application/merge-patch+json"))
                .bodyValue(body)
                .exchange();
    }

    private List<String> tagsOf(String code) {
        return db.sql(
                        "SELECT t.name FROM link_tag lt JOIN tag t ON t.id = lt.tag_id WHERE lt.code = :code ORDER BY t.name")
                .bind("code", code)
                .map(row -> row.get("name", String.class))
                .all()
                .collectList()
                .block();
    }

    private boolean tagExists(String name) {
        return count("SELECT COUNT(*) AS n FROM tag WHERE name = :name", "name", name) > 0;
    }

    private long tagRows(String name) {
        return count(
                "SELECT COUNT(*) AS n FROM link_tag lt JOIN tag t ON t.id = lt.tag_id WHERE t.name = :name",
                "name",
                name);
    }

    private WebTestClient.ResponseSpec create(Map<String, Object> body) {
        return web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private long rows(String url) {
        return count("SELECT COUNT(*) AS n FROM link_all WHERE long_url = :url", "url", url);
    }

    private long allRows() {
        return count("SELECT COUNT(*) AS n FROM link_all", null, null);
    }

    /** The {@code n} a counting query answers, with one named value bound when {@code name} is given. */
    private long count(String sql, String name, Object value) {
        var spec = db.sql(sql);
        if (name != null) {
            spec = spec.bind(name, value);
        }
        return spec.map(row -> ((Number) row.get("n")).longValue())
                .one()
                .blockOptional()
                .orElse(0L);
    }
}
