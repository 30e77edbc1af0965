package dev.shortgate.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Two pods on one MariaDB race each other, under each code strategy (one subclass each). Creating the same URL 50
 * times each, all at once, makes one row and one code: the primary key decides (hash: every creator proposes the
 * same first candidate), or the create key does (sequence and pool: candidates differ per create), and the loser
 * re-reads and finds its own URL there. Concurrent patches of one
 * link all take effect: the version column decides, and the loser re-applies its patch to the new state.
 */
abstract class ConcurrentCreateChecks {

    /** Two pods on one MariaDB, with the strategy under test. */
    abstract Pods pods();

    static Pods twoPods(String strategy) {
        return twoPods(Pods.onMariaDb(), strategy);
    }

    static Pods twoPods(Pods pods, String strategy) {
        return pods.with("shortgate.codegen.secret", "concurrent-create-it-secret")
                .with("shortgate.codegen.strategy", strategy)
                .with("shortgate.codegen.pool.low-water", 500)
                .with("shortgate.codegen.pool.high-water", 2000)
                // these tests race creates and patches, not the API key's rate limit (shared through Redis)
                .with("shortgate.security.rate-limit.api-capacity", 100_000)
                .with("shortgate.security.rate-limit.api-refill", 100_000)
                .count(2);
    }

    record Outcome(int status, String code) {}

    @Test
    void fiftyConcurrentCreatesOnEachOfTwoPodsMakeOneRowAndOneCode() {
        String url = "https://example.com/race?x=1";
        List<Outcome> outcomes = Flux.merge(creates(pods().a(), url, 50), creates(pods().b(), url, 50))
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(outcomes).hasSize(100);
        assertThat(outcomes).allSatisfy(o -> assertThat(o.status()).isIn(200, 201));
        Set<String> codes = outcomes.stream().map(Outcome::code).collect(Collectors.toSet());
        assertThat(codes).hasSize(1);
        assertThat(outcomes.stream().filter(o -> o.status() == 201).count()).isEqualTo(1);
        assertThat(pods().database().queryForLong("SELECT COUNT(*) FROM link_all WHERE long_url = '" + url + "'"))
                .isEqualTo(1);
    }

    @Test
    void concurrentCreatesOfDistinctUrlsAllSucceedWithDistinctCodes() {
        Flux<Outcome> many = Flux.range(0, 200)
                .flatMap(i -> create(i % 2 == 0 ? pods().a() : pods().b(), "https://example.com/distinct/" + i), 64);
        List<Outcome> outcomes = many.collectList().block(Duration.ofSeconds(60));
        assertThat(outcomes).allSatisfy(o -> assertThat(o.status()).isEqualTo(201));
        assertThat(outcomes.stream().map(Outcome::code).distinct().count()).isEqualTo(200);
    }

    /**
     * Each link gets five patches at once, split over both pods, each changing a different field. A patch that
     * read the link before another one wrote it must not write the old value of that other field back.
     */
    @Test
    void concurrentPatchesOfDifferentFieldsOnTwoPodsAllTakeEffect() {
        List<Map<String, Object>> patches = List.of(
                Map.of("url", "https://example.com/patched"),
                Map.of("redirectStatus", 307),
                Map.of("forwardQuery", true),
                Map.of("maxVisits", 1000),
                Map.of("expiresAt", "2099-01-01T00:00:00Z"));
        int links = 10;
        List<String> codes = Flux.range(0, links)
                .flatMap(i -> create(pods().a(), "https://example.com/to-patch/" + i))
                .map(Outcome::code)
                .collectList()
                .block(Duration.ofSeconds(30));

        List<Integer> statuses = Flux.fromIterable(codes)
                .flatMap(
                        code -> Flux.range(0, patches.size())
                                .flatMap(
                                        i -> patch(i % 2 == 0 ? pods().a() : pods().b(), code, patches.get(i)),
                                        patches.size()),
                        links * patches.size())
                .collectList()
                .block(Duration.ofSeconds(60));

        assertThat(statuses).hasSize(links * patches.size()).containsOnly(200);
        for (String code : codes) {
            Map<String, Object> link = WebClient.create(
                            "http://127.0.0.1:" + pods().b().port())
                    .get()
                    .uri("/api/v1/links/" + code)
                    .header("X-Api-Key", TestServers.ADMIN_KEY)
                    .retrieve()
                    .bodyToMono(new org.springframework.core.ParameterizedTypeReference<Map<String, Object>>() {})
                    .block(Duration.ofSeconds(10));
            assertThat(link)
                    .as(code)
                    .containsEntry("url", "https://example.com/patched")
                    .containsEntry("redirectStatus", 307)
                    .containsEntry("forwardQuery", true)
                    .containsEntry("maxVisits", 1000)
                    .containsEntry("expiresAt", "2099-01-01T00:00:00Z");
        }
    }

    private static Mono<Integer> patch(RunningApp app, String code, Map<String, Object> patch) {
        return WebClient.create("http://127.0.0.1:" + app.port())
                .patch()
                .uri("/api/v1/links/" + code)
                .contentType(MediaType.valueOf("application/merge-patch+json"))
                .header("X-Api-Key", TestServers.ADMIN_KEY)
                .bodyValue(patch)
                .exchangeToMono(response ->
                        response.releaseBody().thenReturn(response.statusCode().value()));
    }

    private Flux<Outcome> creates(RunningApp app, String url, int n) {
        return Flux.range(0, n).flatMap(i -> create(app, url), n);
    }

    static Mono<Outcome> create(RunningApp app, String url) {
        return WebClient.create("http://127.0.0.1:" + app.port())
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .header("X-Api-Key", TestServers.ADMIN_KEY)
                .bodyValue(Map.of("url", url))
                .exchangeToMono(response -> response.bodyToMono(Map.class)
                        .map(body -> new Outcome(response.statusCode().value(), String.valueOf(body.get("code")))));
    }
}
