package dev.shortgate.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Two pods on MariaDB and Redis serve a.test/x and b.test/x to different URLs; a domain added on one pod is a
 * self-link on the other from its next reload; what one pod creates or deletes on a domain the other serves at once
 * for that host only; links made before any domain existed keep redirecting, under
 * the very Redis key they always had.
 */
class DomainsTwoPodsIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.base-url", "https://sho.rt")
            .with("shortgate.domains.refresh-interval", "200ms")
            .count(2);

    @Test
    void twoPodsServeTheSameCodeOnTwoDomainsByHost() {
        // A link of the single-domain gateway, before any domain is added
        create(pods.a(), Map.of("url", "https://example.com/old", "alias", "old"))
                .expectStatus()
                .isCreated();
        redirect(pods.b(), "sho.rt", "/old").expectStatus().isFound();
        assertThat(redisHasKey("link:old")).isTrue();

        for (String domain : new String[] {"a.test", "b.test"}) {
            pods.a()
                    .web()
                    .post()
                    .uri("/api/v1/domains")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("domain", domain))
                    .exchange()
                    .expectStatus()
                    .isCreated();
        }
        // pod B learns of them at its next reload
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> pods.b()
                .web()
                .get()
                .uri("/api/v1/domains")
                .exchange()
                .expectBody()
                .jsonPath("$.domains.length()")
                .isEqualTo(3));
        // and its URL policy then refuses links to them as self-links, with no row written
        long links = pods.database().queryForLong("SELECT COUNT(*) FROM link");
        create(pods.b(), Map.of("url", "https://a.test/loop", "domain", "b.test"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.type")
                .isEqualTo("https://shortgate.dev/problems/url-self-link");
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link")).isEqualTo(links);

        // an unknown code on a domain, asked of pod B first, then made on pod A: B serves it at once
        redirect(pods.b(), "a.test", "/x").expectStatus().isNotFound();
        create(pods.a(), Map.of("url", "https://example.com/a-x", "alias", "x", "domain", "a.test"))
                .expectStatus()
                .isCreated();
        create(pods.b(), Map.of("url", "https://example.com/b-x", "alias", "x", "domain", "b.test"))
                .expectStatus()
                .isCreated();
        for (RunningApp pod : new RunningApp[] {pods.a(), pods.b()}) {
            Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> redirect(pod, "a.test", "/x")
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .location("https://example.com/a-x"));
            Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> redirect(pod, "b.test", "/x")
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .location("https://example.com/b-x"));
            redirect(pod, "sho.rt", "/x").expectStatus().isNotFound();
            // the old link stays where it was, for its own host and for hosts that are none of ours
            redirect(pod, "sho.rt", "/old")
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .location("https://example.com/old");
            redirect(pod, "other.example", "/old").expectStatus().isFound();
            redirect(pod, "a.test", "/old").expectStatus().isNotFound();
        }
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link WHERE code LIKE '%~x'"))
                .isEqualTo(2);
        assertThat(redisHasKey("link:old")).isTrue();

        // a delete on one domain, through pod B, leaves the other's code alone on both pods
        pods.b()
                .web()
                .delete()
                .uri("/api/v1/links/x?domain=a.test")
                .exchange()
                .expectStatus()
                .isNoContent();
        for (RunningApp pod : new RunningApp[] {pods.a(), pods.b()}) {
            Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> redirect(pod, "a.test", "/x")
                    .expectStatus()
                    .isNotFound());
            redirect(pod, "b.test", "/x")
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .location("https://example.com/b-x");
        }
    }

    @Test
    void concurrentCreatesOfOneUrlOnTwoDomainsMakeOneRowPerDomain() {
        for (String domain : new String[] {"c1.test", "c2.test"}) {
            pods.a()
                    .web()
                    .post()
                    .uri("/api/v1/domains")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("domain", domain))
                    .exchange();
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> pods.b()
                .web()
                .get()
                .uri("/api/v1/domains")
                .exchange()
                .expectBody()
                .jsonPath("$.domains[?(@.domain == 'c2.test')]")
                .exists());
        String url = "https://example.com/concurrent-on-two-domains";
        List<String> codes = Flux.fromArray(new RunningApp[] {pods.a(), pods.b()})
                .flatMap(pod -> Flux.fromArray(new String[] {"c1.test", "c2.test"})
                        .flatMap(domain -> Flux.range(0, 50).flatMap(i -> create(pod, url, domain), 50)))
                .collectList()
                .block(Duration.ofSeconds(60));
        assertThat(codes).hasSize(200);
        // every create answered, and all 100 on one domain answered that domain's one link
        assertThat(new java.util.TreeSet<>(codes))
                .hasSize(2)
                .allMatch(answer -> answer.startsWith("c1.test/") || answer.startsWith("c2.test/"));
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link WHERE long_url = '" + url + "'"))
                .isEqualTo(2);
        assertThat(pods.database()
                        .queryForLong(
                                "SELECT COUNT(DISTINCT SUBSTRING_INDEX(code, '~', 1)) FROM link WHERE long_url = '"
                                        + url + "'"))
                .isEqualTo(2);
    }

    /** A create on {@code domain} through {@code pod}'s own HTTP client; emits the "domain/code" it answered. */
    private static Mono<String> create(RunningApp pod, String url, String domain) {
        return WebClient.create("http://127.0.0.1:" + pod.port())
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .header("X-Api-Key", TestServers.ADMIN_KEY)
                .bodyValue(Map.of("url", url, "domain", domain))
                .exchangeToMono(response -> response.bodyToMono(Map.class)
                        .map(body -> response.statusCode().is2xxSuccessful()
                                ? body.get("domain") + "/" + body.get("code")
                                : "failed " + response.statusCode().value() + " " + body));
    }

    private static boolean redisHasKey(String key) {
        return Boolean.TRUE.equals(pods.a()
                .bean(ReactiveStringRedisTemplate.class)
                .hasKey(pods.redisPrefix() + key)
                .block(Duration.ofSeconds(2)));
    }

    private static WebTestClient.ResponseSpec create(RunningApp pod, Map<String, Object> body) {
        return pod.web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private static WebTestClient.ResponseSpec redirect(RunningApp pod, String host, String path) {
        return pod.web().get().uri(path).header("Host", host).exchange();
    }
}
