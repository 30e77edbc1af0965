package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.guard.RedisCodeGuard;
import dev.shortgate.redirect.guard.UnknownCodeGuard;
import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.redirect.lookup.RedisLinks;
import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestRedisCluster;
import dev.shortgate.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import reactor.core.publisher.Mono;

/**
 * Two pods on one MariaDB and a real Redis Cluster (3 masters, 3 replicas, started by {@code .ci/redis-cluster.sh}):
 * every Redis use works on it (the link tier, the unknown-code guard, invalidations, shared rate limits), and when
 * a master is killed redirects keep working and the Redis tier comes back by itself once its replica takes over.
 * The near-cache TTL is far longer than the test, so only an invalidation message can change what a pod serves.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedisCluster()
            .with("shortgate.redirect.near-cache.ttl", "10m")
            .with("shortgate.redirect.near-cache.negative-ttl", "10m")
            .with("shortgate.visit.enabled", "false")
            // generous, so a loaded CI machine never falls back to per-pod buckets while the cluster connection warms
            .with("shortgate.security.rate-limit.redis-timeout", "5s")
            .count(2);

    static TestRedisCluster cluster;

    @BeforeAll
    static void connect() {
        cluster = new TestRedisCluster(TestServers.redisClusterNodes());
    }

    @AfterAll
    static void restartKilledNodes() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void createRedirectChangeAndDeleteWorkAcrossPodsOnTheCluster() {
        create(pods.a(), "cl-flow", "https://example.com/v1");
        String prefix = pods.redisPrefix();
        assertThat(cluster.get(prefix + "link:cl-flow"))
                .as("written through to the cluster")
                .get()
                .asString()
                .contains("https://example.com/v1");
        double redisHits = lookups(pods.b(), "redis", "hit");

        expectRedirect(pods.b(), "/cl-flow", "https://example.com/v1");
        assertThat(lookups(pods.b(), "redis", "hit"))
                .as("B found it in the cluster")
                .isEqualTo(redisHits + 1);

        pods.a()
                .web()
                .patch()
                .uri("/api/v1/links/cl-flow")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/v2"))
                .exchange()
                .expectStatus()
                .isOk();
        awaitOn(pods.b(), "/cl-flow", 302, "https://example.com/v2", Duration.ofSeconds(1));

        pods.a()
                .web()
                .delete()
                .uri("/api/v1/links/cl-flow")
                .exchange()
                .expectStatus()
                .isNoContent();
        awaitOn(pods.b(), "/cl-flow", 404, null, Duration.ofSeconds(1));
    }

    @Test
    @Order(2)
    void aNegativeEntryOnOnePodIsDroppedWhenTheOtherCreatesTheCode() {
        pods.b().web().get().uri("/cl-soon").exchange().expectStatus().isNotFound();

        create(pods.a(), "cl-soon", "https://example.com/arrived");

        awaitOn(pods.b(), "/cl-soon", 302, "https://example.com/arrived", Duration.ofSeconds(1));
    }

    @Test
    @Order(3)
    void theGuardAndTheRateLimitsKeepTheirKeysInTheCluster() {
        create(pods.a(), "cl-guarded", "https://example.com/guarded");
        // (the bucket expires a few seconds after it has refilled: look at once)
        assertThat(cluster.exists(pods.redisPrefix() + "rate:api:admin"))
                .as("the admin key's shared bucket")
                .isTrue();
        for (RunningApp pod : List.of(pods.a(), pods.b())) {
            assertThat(pod.bean(MeterRegistry.class)
                            .get("shortgate.ratelimit.fallbacks")
                            .counter()
                            .count())
                    .as("rate-limit checks that fell back to a pod's own bucket")
                    .isZero();
        }

        RedisCodeGuard guard = (RedisCodeGuard) pods.b().bean(UnknownCodeGuard.class);
        await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> { // built at startup by one pod; B reads the built bit
                            guard.mayExist("cl-probe").block(Duration.ofSeconds(5));
                            return guard.ready();
                        });
        assertThat(guard.mayExist("cl-guarded").block(Duration.ofSeconds(5))).isTrue();
        assertThat(guard.mayExist("cl-never-made").block(Duration.ofSeconds(5))).isFalse();
        assertThat(cluster.exists(guard.keys().get(0))).as("the bitmap").isTrue();
        pods.b().web().get().uri("/cl-never-made").exchange().expectStatus().isNotFound();
    }

    @Test
    @Order(4)
    void redirectsKeepWorkingWhenAMasterIsKilledAndTheRedisTierRecoversByItself() {
        List<String> codes = IntStream.range(0, 20).mapToObj(i -> "cl-fo-" + i).toList();
        for (String code : codes) {
            create(pods.a(), code, "https://example.com/" + code);
            expectRedirect(pods.b(), "/" + code, "https://example.com/" + code); // B caches it too
        }
        String victim = codes.get(0);
        String victimKey = pods.redisPrefix() + "link:" + victim;
        RedisLinks tierOfA = pods.a().bean(RedisLinks.class);
        assertThat(tierOfA.get(victim).block(Duration.ofSeconds(5))).isNotNull();

        int killedPort = cluster.killMasterOf(victimKey);

        // Until the cluster has promoted the replica, and after: every cached code answers on both pods, and a code
        // created meanwhile redirects on the other pod (from the database).
        int round = 0;
        // bounded in time, not in rounds: a round is a few milliseconds, the cluster's failover takes seconds
        long giveUpAt = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (cluster.masterOf(victimKey)
                        .filter(master -> master.getUri().getPort() != killedPort)
                        .isEmpty()
                || round < 3) {
            for (String code : codes) {
                expectRedirect(pods.a(), "/" + code, "https://example.com/" + code);
                expectRedirect(pods.b(), "/" + code, "https://example.com/" + code);
            }
            String created = "cl-during-" + round++;
            create(pods.a(), created, "https://example.com/" + created);
            expectRedirect(pods.b(), "/" + created, "https://example.com/" + created);
            assertThat(System.nanoTime())
                    .as("the replica took over within 60 s (after %d rounds)", round)
                    .isLessThan(giveUpAt);
        }

        // The pods find the promoted replica themselves: the key on the killed master's slots answers again.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Link link = tierOfA.get(victim).onErrorResume(e -> Mono.empty()).block(Duration.ofSeconds(5));
            assertThat(link).as("the link in the promoted replica").isNotNull();
        });
        // The breaker opened during the failover. Half-open, it lets a few calls through and closes when they
        // succeed; the guard's background retries take some of those permits. So the first lookup after the read
        // above may still be refused by the breaker and go to the database.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            double hits = lookups(pods.a(), "redis", "hit");
            pods.a().bean(NearCache.class).invalidate(victim);
            expectRedirect(pods.a(), "/" + victim, "https://example.com/" + victim);
            assertThat(lookups(pods.a(), "redis", "hit"))
                    .as("served from the Redis tier again")
                    .isEqualTo(hits + 1);
        });

        // Invalidations flow again too.
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
            String url = "https://example.com/after-failover-" + System.nanoTime();
            pods.a()
                    .web()
                    .patch()
                    .uri("/api/v1/links/" + victim)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("url", url))
                    .exchange()
                    .expectStatus()
                    .isOk();
            awaitOn(pods.b(), "/" + victim, 302, url, Duration.ofSeconds(1));
        });
    }

    private static void create(RunningApp pod, String alias, String url) {
        pod.web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url, "alias", alias))
                .exchange()
                .expectStatus()
                .isCreated();
    }

    private static void expectRedirect(RunningApp pod, String path, String location) {
        pod.web()
                .get()
                .uri(path)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", location);
    }

    private static double lookups(RunningApp pod, String tier, String result) {
        return pod.bean(MeterRegistry.class)
                .get("shortgate.lookups")
                .tag("tier", tier)
                .tag("result", result)
                .counter()
                .count();
    }

    /** Waits up to {@code within} for the pod to answer the path so, polling; then asserts it once more. */
    private static void awaitOn(RunningApp pod, String path, int status, String location, Duration within) {
        await().atMost(within)
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    EntityExchangeResult<byte[]> result =
                            pod.web().get().uri(path).exchange().expectBody().returnResult();
                    return result.getStatus().value() == status
                            && (location == null
                                    || location.equals(
                                            result.getResponseHeaders().getFirst("Location")));
                });
    }
}
