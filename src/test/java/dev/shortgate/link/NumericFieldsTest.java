package dev.shortgate.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Numbers in create, batch and PATCH bodies bind strictly: a fraction, a quoted number, a number out of range or a
 * flag in a number's place is a 400 {@code invalid-request} naming the field, and nothing is written. Jackson would
 * otherwise truncate {@code 301.5} to 301, read {@code "302"} as 302, or wrap {@code 4294967598} to 302.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + NumericFieldsTest.KEY,
            "spring.r2dbc.url=r2dbc:h2:mem:///numbers?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class NumericFieldsTest {

    static final String KEY = "numbers-admin-key-012345";
    static final MediaType MERGE_PATCH = MediaType.parseMediaType("application/merge-patch+json");
    static final String INVALID_REQUEST = "https://shortgate.dev/problems/invalid-request";

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Autowired
    DatabaseClient db;

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redirectStatus | 301.5",
                "redirectStatus | 307.99",
                "redirectStatus | 302.0",
                "redirectStatus | '\"302\"'",
                "redirectStatus | 4294967598",
                "redirectStatus | 4294967597",
                "redirectStatus | -4294966995",
                "redirectStatus | 123456789012345678901234567890",
                "redirectStatus | 3.02e2",
                "redirectStatus | true",
                "maxVisits      | 1.5",
                "maxVisits      | '\"10\"'",
                "maxVisits      | 123456789012345678901234567890",
                "length         | 7.5",
                "length         | '\"7\"'",
                "length         | 4294967303"
            })
    void createRejectsANumberThatIsNotAnIntegerInRangeAndWritesNothing(String field, String value) {
        String url = "https://example.com/create/" + Math.abs((field + value).hashCode());
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"url\":\"" + url + "\",\"" + field + "\":" + value + "}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(INVALID_REQUEST)
                .jsonPath("$.field")
                .isEqualTo(field);
        assertThat(rows(url)).isZero();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redirectStatus | 301.5",
                "redirectStatus | 307.99",
                "redirectStatus | '\"302\"'",
                "redirectStatus | 4294967598",
                "redirectStatus | 4294967597",
                "redirectStatus | -4294966995",
                "redirectStatus | 123456789012345678901234567890",
                "redirectStatus | null",
                "maxVisits      | 2.5",
                "maxVisits      | '\"10\"'",
                "maxVisits      | 123456789012345678901234567890",
                "disabled       | 1",
                "forwardQuery   | '\"true\"'",
                "url            | 42"
            })
    void patchRejectsAValueOfTheWrongTypeOrRangeAndChangesNothing(String field, String value) {
        String alias = "p" + Math.abs((field + value).hashCode());
        web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"url\":\"https://example.com/patch/" + alias + "\",\"alias\":\"" + alias
                        + "\",\"redirectStatus\":308,\"maxVisits\":5}")
                .exchange()
                .expectStatus()
                .isCreated();

        web.patch()
                .uri("/api/v1/links/" + alias)
                .contentType(MERGE_PATCH)
                .bodyValue("{\"" + field + "\":" + value + "}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(INVALID_REQUEST)
                .jsonPath("$.field")
                .isEqualTo(field);
        web.get()
                .uri("/api/v1/links/" + alias)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.redirectStatus")
                .isEqualTo(308)
                .jsonPath("$.maxVisits")
                .isEqualTo(5)
                .jsonPath("$.url")
                .isEqualTo("https://example.com/patch/" + alias)
                .jsonPath("$.disabled")
                .isEqualTo(false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"301.5", "\"302\"", "4294967598", "-4294966995", "123456789012345678901234567890"})
    void batchAnswersABadNumberAsThatItemsProblemAndCreatesTheOthers(String value) {
        String bad = "https://example.com/batch-bad/" + Math.abs(value.hashCode());
        String good = "https://example.com/batch-good/" + Math.abs(value.hashCode());
        web.post()
                .uri("/api/v1/links/batch")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"links\":[{\"url\":\"" + good + "\",\"redirectStatus\":307}," + "{\"url\":\"" + bad
                        + "\",\"redirectStatus\":" + value + "}]}")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.results.length()")
                .isEqualTo(2)
                .jsonPath("$.results[0].redirectStatus")
                .isEqualTo(307)
                .jsonPath("$.results[1].type")
                .isEqualTo(INVALID_REQUEST)
                .jsonPath("$.results[1].field")
                .isEqualTo("redirectStatus")
                .jsonPath("$.results[1].index")
                .isEqualTo(1);
        assertThat(rows(good)).isEqualTo(1);
        assertThat(rows(bad)).isZero();
    }

    private long rows(String url) {
        return db.sql("SELECT COUNT(*) AS n FROM link WHERE long_url = :url")
                .bind("url", url)
                .map(row -> ((Number) row.get("n")).longValue())
                .one()
                .blockOptional()
                .orElse(0L);
    }
}
