package dev.shortgate.galera;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import dev.shortgate.support.Conflicts;
import dev.shortgate.support.GaleraNodes;
import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A Galera node killed with {@code kill -9} under creates, redirects and visits, then started again. Pod A works
 * through node 1, pod B through node 2 (haproxy listeners pinned to them, with the other nodes as backups, as a
 * Kubernetes Service would move a pod's new connections); node 2 is killed. Cached codes keep answering 302 on both
 * pods; a create answers 200/201, or 503 with {@code Retry-After}, never 500, and every link answered 200/201 exists;
 * no visit is lost (the aggregate total and the raw rows equal the 302s served); node 2 rejoins by IST and then holds
 * the same rows as the others.
 */
class GaleraNodeLossIT {

    private static final int KILLED = 2;
    private static final int SURVIVOR = 1;

    @RegisterExtension
    static final Pods PODS = Pods.onGalera()
            .with("shortgate.redirect.near-cache.ttl", "10m")
            .with("shortgate.security.rate-limit.api-capacity", 100_000)
            .with("shortgate.security.rate-limit.api-refill", 100_000)
            .count(2);

    @Test
    void aNodeKilledUnderLoadCostsNoRedirectNoVisitAndNo500AndRejoinsWithTheSameRows() throws InterruptedException {
        List<String> codes = Flux.range(0, 10)
                .concatMap(i -> GaleraVisitCountIT.create(PODS.a(), "https://example.com/node-loss/" + i))
                .collectList()
                .block(Duration.ofSeconds(60));
        AtomicLong found = new AtomicLong();
        ConcurrentMap<Integer, AtomicInteger> redirects = new ConcurrentHashMap<>();
        ConcurrentMap<String, AtomicInteger> creates = new ConcurrentHashMap<>();
        Set<String> made = ConcurrentHashMap.newKeySet();
        // Every code cached on both pods before the fault.
        for (String code : codes) {
            for (RunningApp pod : List.of(PODS.a(), PODS.b())) {
                assertThat(GaleraVisitCountIT.redirect(pod, code).block(Duration.ofSeconds(10)))
                        .isEqualTo(302);
                found.incrementAndGet();
            }
        }

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger sequence = new AtomicInteger();
        Disposable redirectLoad = Flux.range(0, Integer.MAX_VALUE)
                .takeWhile(i -> running.get())
                .flatMap(
                        i -> GaleraVisitCountIT.redirect(i % 2 == 0 ? PODS.a() : PODS.b(), codes.get(i % codes.size()))
                                .onErrorReturn(-1),
                        16)
                .subscribeOn(Schedulers.boundedElastic())
                .subscribe(status -> {
                    redirects.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    if (status == 302) {
                        found.incrementAndGet();
                    }
                });
        Disposable createLoad = Flux.range(0, Integer.MAX_VALUE)
                .takeWhile(i -> running.get())
                .flatMap(
                        i -> create(
                                i % 2 == 0 ? PODS.a() : PODS.b(),
                                "https://example.com/node-loss/new/" + sequence.incrementAndGet()),
                        4)
                .subscribeOn(Schedulers.boundedElastic())
                .subscribe(outcome -> {
                    creates.computeIfAbsent(outcome.answer(), s -> new AtomicInteger())
                            .incrementAndGet();
                    if (outcome.code() != null) {
                        made.add(outcome.code());
                    }
                });
        long rejoinMillis;
        try {
            // Each phase lasts until the load has made progress in it: a number of answers, not a time.
            awaitAnswers(redirects, creates, 1_000);
            GaleraNodes.kill(KILLED);
            // Down until the survivors have evicted it (Galera's suspect timeout, about 5 s), under load all along.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> GaleraNodes.clusterSize(SURVIVOR) == 2);
            awaitAnswers(redirects, creates, 1_000);
            long restartAt = System.nanoTime();
            GaleraNodes.restart(KILLED);
            rejoinMillis = (System.nanoTime() - restartAt) / 1_000_000;
            awaitAnswers(redirects, creates, 1_000);
        } finally {
            running.set(false);
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> redirectLoad.isDisposed() && createLoad.isDisposed());

        System.out.printf(
                "[galera] node %d killed under load, rejoined in %d ms: redirects %s, creates %s; pod A %s, pod B %s%n",
                KILLED,
                rejoinMillis,
                plain(redirects),
                plainCreates(creates),
                Conflicts.of(PODS.a()),
                Conflicts.of(PODS.b()));

        assertThat(plain(redirects)).as("redirect answers for cached codes").containsOnlyKeys(302);
        assertThat(plainCreates(creates).keySet())
                .as("create answers (503 only with Retry-After)")
                .isSubsetOf("200", "201", "503+Retry-After");
        assertThat(creates.getOrDefault("201", new AtomicInteger()).get()).isPositive();
        TestServers.Database database = PODS.database();
        String inList = made.stream().map(code -> "'" + code + "'").collect(Collectors.joining(","));
        assertThat(database.queryForLong("SELECT COUNT(*) FROM link_all WHERE code IN (" + inList + ")"))
                .as("links answered 200/201 that exist")
                .isEqualTo(made.size());

        // No visit lost: every 302 served is counted once, and has its raw row.
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    assertThat(database.queryForLong("SELECT COALESCE(SUM(visits), 0) FROM link_stats"))
                            .isEqualTo(found.get());
                    assertThat(database.queryForLong("SELECT COUNT(*) FROM visit"))
                            .isEqualTo(found.get());
                });

        // The node that was killed holds the same rows as the others.
        List<String> nodes = TestServers.galeraNodeUrls();
        for (String table : List.of("link_all", "visit", "link_stats", "visit_flush", "link_create_key")) {
            long first = database.queryForLongOn(nodes.get(0), "SELECT COUNT(*) FROM " + table);
            for (String node : nodes) {
                assertThat(database.queryForLongOn(node, "SELECT COUNT(*) FROM " + table))
                        .as(table + " on " + node)
                        .isEqualTo(first);
            }
        }
        for (String node : nodes) {
            assertThat(database.queryForLongOn(node, "SELECT COALESCE(SUM(visits), 0) FROM link_stats"))
                    .as("visits counted on " + node)
                    .isEqualTo(found.get());
        }
    }

    private record Outcome(String answer, String code) {}

    private static Mono<Outcome> create(RunningApp app, String url) {
        return WebClient.create("http://127.0.0.1:" + app.port())
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .header("X-Api-Key", TestServers.ADMIN_KEY)
                .bodyValue(Map.of("url", url))
                .exchangeToMono(response -> {
                    int status = response.statusCode().value();
                    if (status == 200 || status == 201) {
                        return response.bodyToMono(Map.class)
                                .map(body -> new Outcome(Integer.toString(status), String.valueOf(body.get("code"))));
                    }
                    boolean retryAfter = response.headers().header(HttpHeaders.RETRY_AFTER).stream()
                            .anyMatch(v -> !v.isBlank());
                    String answer = status + (status == 503 && retryAfter ? "+Retry-After" : "");
                    return response.releaseBody().thenReturn(new Outcome(answer, null));
                })
                .onErrorResume(
                        e -> Mono.just(new Outcome("no answer: " + e.getClass().getSimpleName(), null)));
    }

    private static Map<Integer, Integer> plain(Map<Integer, AtomicInteger> counts) {
        Map<Integer, Integer> plain = new TreeMap<>();
        counts.forEach((k, v) -> plain.put(k, v.get()));
        return plain;
    }

    private static Map<String, Integer> plainCreates(Map<String, AtomicInteger> counts) {
        Map<String, Integer> plain = new TreeMap<>();
        counts.forEach((k, v) -> plain.put(k, v.get()));
        return plain;
    }

    /** Waits until the redirect and create loads have answered {@code more} requests beyond what they had. */
    private static void awaitAnswers(
            Map<Integer, AtomicInteger> redirects, Map<String, AtomicInteger> creates, int more) {
        long from = answered(redirects) + answered(creates);
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> answered(redirects) + answered(creates) >= from + more);
    }

    private static long answered(Map<?, AtomicInteger> counts) {
        return counts.values().stream().mapToLong(AtomicInteger::get).sum();
    }
}
