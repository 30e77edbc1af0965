package dev.shortgate.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The URL policy refuses a long URL on any added short domain (or a subdomain of one) as a self-link, as it refuses
 * the base URL's host: in a create of either API, an edit, a redirect rule's target, a domain's redirect and an
 * import row, each answering {@code url-self-link} and writing nothing; once the domain is removed the URL is an
 * ordinary one again.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + DomainsApiTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "spring.r2dbc.url=r2dbc:h2:mem:///domains?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class AddedDomainSelfLinksTest {

    static final String SELF_LINK = "https://shortgate.dev/problems/url-self-link";

    WebTestClient web;

    @Autowired
    DatabaseClient db;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", DomainsApiTest.KEY).build();
    }

    @Test
    void everyUrlOnAnAddedDomainIsRefusedAsASelfLinkWhereverTheUrlPolicyApplies() {
        create(Map.of("url", "https://loop.example/before", "alias", "loop-before"))
                .expectStatus()
                .isCreated();
        web.post()
                .uri("/api/v1/domains")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", "Loop.Example"))
                .exchange()
                .expectStatus()
                .isCreated();
        web.post()
                .uri("/api/v1/domains")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("domain", "other-loop.example"))
                .exchange()
                .expectStatus()
                .isCreated();
        String before = snapshot();

        for (String url :
                List.of("https://loop.example/x", "HTTP://LOOP.EXAMPLE.:8080/x", "https://www.loop.example/x")) {
            selfLink(create(Map.of("url", url)));
            selfLink(create(Map.of("url", url, "domain", "other-loop.example")));
        }
        web.post()
                .uri("/rest/v3/short-urls")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("longUrl", "https://loop.example/shlink", "domain", "other-loop.example"))
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shlink.io/api/error/invalid-data")
                .jsonPath("$.invalidElements[0]")
                .isEqualTo("longUrl");
        selfLink(web.patch()
                .uri("/api/v1/links/loop-before")
                .contentType(MediaType.parseMediaType("application/merge-patch+json"))
                .bodyValue(Map.of("url", "https://loop.example/edited"))
                .exchange());
        selfLink(web.put()
                .uri("/api/v1/links/loop-before/rules")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of(
                        "rules",
                        List.of(Map.of(
                                "url",
                                "https://other-loop.example/rule",
                                "conditions",
                                List.of(Map.of("type", "device", "matchValue", "android"))))))
                .exchange());
        selfLink(web.put()
                .uri("/api/v1/domains/other-loop.example/settings")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("baseUrlRedirect", "https://loop.example/"))
                .exchange());
        Map<String, Object> job = importCsv(
                "Long URL,Tags,Domain,Short Code,Title\n" + "https://loop.example/imported,,,loop-imported,Refused\n");
        assertThat(job).containsEntry("status", "done");
        assertThat(job.get("result"))
                .asInstanceOf(InstanceOfAssertFactories.MAP)
                .containsEntry("created", 0)
                .containsEntry("refused", 1);
        assertThat(snapshot()).isEqualTo(before);

        web.delete()
                .uri("/api/v1/domains/loop.example")
                .exchange()
                .expectStatus()
                .isNoContent();
        create(Map.of("url", "https://loop.example/after", "alias", "loop-after"))
                .expectStatus()
                .isCreated();
    }

    private WebTestClient.ResponseSpec create(Map<String, Object> body) {
        return web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private static void selfLink(WebTestClient.ResponseSpec response) {
        response.expectStatus().isBadRequest().expectBody().jsonPath("$.type").isEqualTo(SELF_LINK);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> importCsv(String csv) {
        String location = web.post()
                .uri("/api/v1/imports")
                .contentType(MediaType.parseMediaType("text/csv"))
                .bodyValue(csv)
                .exchange()
                .expectStatus()
                .isAccepted()
                .returnResult(String.class)
                .getResponseHeaders()
                .getLocation()
                .toString();
        Map<String, Object>[] job = new Map[1];
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    job[0] = web.get()
                            .uri(location)
                            .exchange()
                            .expectStatus()
                            .isOk()
                            .expectBody(Map.class)
                            .returnResult()
                            .getResponseBody();
                    return !"running".equals(job[0].get("status"));
                });
        return job[0];
    }

    /** Every link's key, URL and version, the rules and the domains' redirects: equal means nothing was written. */
    private String snapshot() {
        return query("SELECT COUNT(*) AS n FROM link") + "/" + query("SELECT COALESCE(SUM(version), 0) AS n FROM link")
                + "/" + query("SELECT COUNT(*) AS n FROM link WHERE long_url LIKE '%loop.example%'")
                + "/" + query("SELECT COUNT(*) AS n FROM link_rules")
                + "/" + query("SELECT COUNT(*) AS n FROM domain_redirect");
    }

    private long query(String sql) {
        return db.sql(sql).map(row -> ((Number) row.get("n")).longValue()).one().block(Duration.ofSeconds(10));
    }
}
