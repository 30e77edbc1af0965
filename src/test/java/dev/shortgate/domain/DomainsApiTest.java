package dev.shortgate.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Adding, listing and removing short domains through the admin API, and creates that name a domain. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + DomainsApiTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "spring.r2dbc.url=r2dbc:h2:mem:///domains?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class DomainsApiTest {

    static final String KEY = "domains-admin-key-012345";
    static final String PROBLEM = "https://shortgate.dev/problems/";

    WebTestClient web;

    @Autowired
    DatabaseClient db;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void anAddedDomainIsListedAfterTheDefaultOneAndCanBeRemoved() {
        add("Listed.Example.")
                .expectStatus()
                .isCreated()
                .expectHeader()
                .location("/api/v1/domains/listed.example")
                .expectBody()
                .jsonPath("$.domain")
                .isEqualTo("listed.example")
                .jsonPath("$.isDefault")
                .isEqualTo(false);
        web.get()
                .uri("/api/v1/domains")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.domains[0].domain")
                .isEqualTo("sho.rt")
                .jsonPath("$.domains[0].isDefault")
                .isEqualTo(true)
                .jsonPath("$.domains[?(@.domain == 'listed.example')].isDefault")
                .isEqualTo(false);
        web.delete()
                .uri("/api/v1/domains/listed.example")
                .exchange()
                .expectStatus()
                .isNoContent();
        web.get()
                .uri("/api/v1/domains")
                .exchange()
                .expectBody()
                .jsonPath("$.domains[?(@.domain == 'listed.example')]")
                .doesNotExist();
        assertThat(rows("listed.example")).isZero();
    }

    @Test
    void addingADomainTwiceOrTheDefaultOneIsAConflict() {
        add("twice.example").expectStatus().isCreated();
        add("TWICE.example")
                .expectStatus()
                .isEqualTo(409)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "domain-taken");
        add("sho.rt").expectStatus().isEqualTo(409);
        assertThat(rows("twice.example")).isEqualTo(1);
        assertThat(rows("sho.rt")).isZero();
    }

    @Test
    void aNameThatIsNoDnsHostNameIsRefusedAndWritesNothing() {
        for (String bad : new String[] {"localhost", "1.2.3.4", "bad_name.example", "a.example:8080", ""}) {
            add(bad).expectStatus()
                    .isBadRequest()
                    .expectBody()
                    .jsonPath("$.type")
                    .isEqualTo(PROBLEM + "invalid-domain")
                    .jsonPath("$.field")
                    .isEqualTo("domain");
        }
        assertThat(db.sql("SELECT COUNT(*) AS n FROM domains WHERE host IN ('localhost', '1.2.3.4')")
                        .map(row -> ((Number) row.get("n")).longValue())
                        .one()
                        .block())
                .isZero();
    }

    @Test
    void removingAnUnknownDomainIs404AndTheDefaultOneIsRefused() {
        web.delete()
                .uri("/api/v1/domains/never.example")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "domain-not-found");
        web.delete()
                .uri("/api/v1/domains/sho.rt")
                .exchange()
                .expectStatus()
                .isEqualTo(409)
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "domain-in-use");
    }

    @Test
    void onlyAdminsManageDomains() {
        String createKey = web.post()
                .uri("/api/v1/keys")
                .bodyValue(Map.of("name", "creator", "scope", "create"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("key")
                .toString();
        WebTestClient creator =
                web.mutate().defaultHeader("X-Api-Key", createKey).build();
        creator.post()
                .uri("/api/v1/domains")
                .bodyValue(Map.of("domain", "creator.example"))
                .exchange()
                .expectStatus()
                .isForbidden();
        creator.get().uri("/api/v1/domains").exchange().expectStatus().isForbidden();
        assertThat(rows("creator.example")).isZero();
    }

    @Test
    void aCreateNamingAnUnregisteredDomainIsRefusedAndWritesNothing() {
        web.post()
                .uri("/api/v1/links")
                .bodyValue(Map.of("url", "https://example.com/unregistered", "domain", "nowhere.example"))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo(PROBLEM + "unknown-domain")
                .jsonPath("$.field")
                .isEqualTo("domain");
        assertThat(db.sql("SELECT COUNT(*) AS n FROM link WHERE long_url = 'https://example.com/unregistered'")
                        .map(row -> ((Number) row.get("n")).longValue())
                        .one()
                        .block())
                .isZero();
    }

    @Test
    void aCreateNamingTheDefaultDomainIsACreateOnTheDefaultDomain() {
        web.post()
                .uri("/api/v1/links")
                .bodyValue(Map.of("url", "https://example.com/default-named", "domain", "SHO.RT"))
                .exchange()
                .expectStatus()
                .isCreated();
    }

    private WebTestClient.ResponseSpec add(String domain) {
        return web.post()
                .uri("/api/v1/domains")
                .bodyValue(Map.of("domain", domain))
                .exchange();
    }

    private long rows(String host) {
        return db.sql("SELECT COUNT(*) AS n FROM domains WHERE host = :host")
                .bind("host", host)
                .map(row -> ((Number) row.get("n")).longValue())
                .one()
                .block();
    }
}
