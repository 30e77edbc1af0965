package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Shlink's main flow on real MariaDB and Redis: create with a slug and tags, list, edit, follow, see the visits and
 * tag stats, rename a tag, delete. Answers are checked against Shlink's pinned schemas, as on H2.
 */
class ShlinkApiIT {

    static final String API = "/rest/v3";

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.visit.flush-interval", "50ms")
            .with("shortgate.visit.counts-flush-interval", "100ms");

    @Test
    void shortUrlIsCreatedListedEditedVisitedAndDeleted() {
        WebTestClient web = pods.app().web();
        String created = web.post()
                .uri(API + "/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of(
                        "longUrl",
                        "https://example.com/it/shlink",
                        "customSlug",
                        "it-shlink",
                        "tags",
                        List.of("it-tag", "Other Tag"),
                        "title",
                        "On MariaDB"))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls.json", "post", "200", created);
        assertThat(created).contains("\"tags\":[\"Other Tag\",\"it-tag\"]");

        String list = web.get()
                .uri(API + "/short-urls?tags[]=it-tag&searchTerm=mariadb&orderBy=title-ASC")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls.json", "get", "200", list);
        assertThat(list).contains("\"shortCode\":\"it-shlink\"", "\"totalItems\":1");

        web.patch()
                .uri(API + "/short-urls/it-shlink")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("longUrl", "https://example.com/it/shlink-edited", "tags", List.of("it-tag")))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags.length()")
                .isEqualTo(1);
        web.get()
                .uri("/it-shlink")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals(HttpHeaders.LOCATION, "https://example.com/it/shlink-edited");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> web.get()
                .uri(API + "/short-urls/it-shlink/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.pagination.totalItems")
                .isEqualTo(1));
        String visits = web.get()
                .uri(API + "/short-urls/it-shlink/visits")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        ShlinkSchemas.assertValid("v1_short-urls_{shortCode}_visits.json", "get", "200", visits);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> web.get()
                .uri(API + "/tags/stats")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags.data[?(@.tag == 'it-tag')].visitsSummary.total")
                .isEqualTo(1));

        web.put()
                .uri(API + "/tags")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("oldName", "it-tag", "newName", "IT-Tag"))
                .exchange()
                .expectStatus()
                .isNoContent();
        web.get()
                .uri(API + "/short-urls/it-shlink")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tags[0]")
                .isEqualTo("IT-Tag");

        web.delete()
                .uri(API + "/short-urls/it-shlink")
                .exchange()
                .expectStatus()
                .isNoContent();
        web.get()
                .uri(API + "/short-urls/it-shlink")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/short-url-not-found");
        web.get().uri("/it-shlink").exchange().expectStatus().isNotFound();
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link_tag WHERE code = 'it-shlink'"))
                .isZero();
    }
}
