package dev.shortgate.domain;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** With unknown hosts refused, and behind a trusted proxy whose X-Forwarded-Host picks the domain. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + UnknownHostRefusedTest.KEY,
            "shortgate.base-url=https://sho.rt",
            "shortgate.domains.unknown-host=refuse",
            "shortgate.visit.trusted-proxies=127.0.0.0/8,::1/128",
            "spring.r2dbc.url=r2dbc:h2:mem:///domainrefuse?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class UnknownHostRefusedTest {

    static final String KEY = "domain-refuse-admin-key-0123";

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", KEY).build();
    }

    @Test
    void anUnknownHostIsAnswered404AndAForwardedHostFromATrustedProxyPicksTheDomain() {
        web.post()
                .uri("/api/v1/domains")
                .bodyValue(Map.of("domain", "a.test"))
                .exchange()
                .expectStatus()
                .isCreated();
        web.post()
                .uri("/api/v1/links")
                .bodyValue(Map.of("url", "https://example.com/refuse-default", "alias", "both"))
                .exchange()
                .expectStatus()
                .isCreated();
        web.post()
                .uri("/api/v1/links")
                .bodyValue(Map.of("url", "https://example.com/refuse-a", "alias", "both", "domain", "a.test"))
                .exchange()
                .expectStatus()
                .isCreated();
        web.get()
                .uri("/both")
                .header("Host", "sho.rt")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .location("https://example.com/refuse-default");
        web.get()
                .uri("/both")
                .header("Host", "other.example")
                .exchange()
                .expectStatus()
                .isNotFound();
        web.head()
                .uri("/both")
                .header("Host", "other.example")
                .exchange()
                .expectStatus()
                .isNotFound();
        web.get()
                .uri("/both")
                .header("Host", "other.example")
                .header("X-Forwarded-Host", "a.test, proxy.internal")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .location("https://example.com/refuse-a");
    }
}
