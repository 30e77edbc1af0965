package dev.shortgate.redirect.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/**
 * The unknown-code guard shared in Redis by two pods on MariaDB: a flood of random well-formed codes barely
 * reaches the database (F9), a code created on one pod redirects on the other at once (no false 404), and a
 * guard Redis lost is rebuilt from the database.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UnknownCodeGuardIT {

    static final String ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .count(2)
            // the flood comes from one client: its unknown-code budget is not what this test is about
            .with("shortgate.security.rate-limit.not-found-capacity", "1000000")
            .with("shortgate.security.rate-limit.not-found-refill", "1000000");

    @Test
    @Order(1)
    void floodOfRandomCodesBarelyReachesTheDatabase() {
        for (int i = 0; i < 20; i++) {
            pods.a().shorten("https://example.com/known/" + i);
        }
        awaitReady(pods.a());
        double db = dbLookups(pods.a());
        double unanswered = redisUnanswered(pods.a());
        List<Integer> statuses = flood(pods.a(), 2_000);

        // 404 from the guard; a 503 only where a starved machine made a database check time out, never a 5xx else
        assertThat(statuses)
                .isSubsetOf(404, 503)
                .filteredOn(status -> status == 503)
                .hasSizeLessThan(20);
        // Where Redis did not answer in time the lookup rightly went to the database (no guard without Redis); of the
        // rest, only the guard's false positives (0.1%) and its few verifications a second may.
        assertThat(dbLookups(pods.a()) - db - (redisUnanswered(pods.a()) - unanswered))
                .as("lookups that reached the database although Redis answered")
                .isLessThanOrEqualTo(20);
        assertThat(pods.a()
                        .bean(MeterRegistry.class)
                        .get("shortgate.guard.rejected")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(1_900);
    }

    @Test
    @Order(2)
    void codeCreatedOnOnePodRedirectsOnTheOtherAtOnce() {
        awaitReady(pods.b());
        flood(pods.b(), 200); // spend B's allowance of database checks of rejected codes, so only the guard decides
        for (int i = 0; i < 50; i++) {
            String url = "https://example.com/fresh/" + i;
            String code = pods.a().shorten(url);
            pods.b()
                    .web()
                    .get()
                    .uri("/" + code)
                    .exchange()
                    .expectStatus()
                    .isFound()
                    .expectHeader()
                    .valueEquals("Location", url);
        }
    }

    @Test
    @Order(3)
    void guardThatRedisLostIsRebuiltFromTheDatabase() {
        String survivor = pods.a().shorten("https://example.com/survivor");
        ReactiveStringRedisTemplate redis = pods.a().bean(ReactiveStringRedisTemplate.class);
        redis.keys(pods.redisPrefix() + "guard:*").flatMap(redis::delete).blockLast(Duration.ofSeconds(10));
        pods.a().bean(NearCache.class).invalidateAll();

        pods.a()
                .web()
                .get()
                .uri("/" + survivor)
                .exchange()
                .expectStatus()
                .isFound(); // the guard is missing: let through
        awaitReady(pods.a());
        redis.delete(pods.redisPrefix() + "link:" + survivor).block(Duration.ofSeconds(10));
        pods.a().bean(NearCache.class).invalidate(survivor);
        flood(pods.a(), 100);
        pods.a()
                .web()
                .get()
                .uri("/" + survivor)
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/survivor");
    }

    private static void awaitReady(RunningApp pod) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            pod.web()
                    .get()
                    .uri("/" + randomCode())
                    .exchange()
                    .expectStatus()
                    .isNotFound(); // looks, and builds if need be
            assertThat(pod.bean(MeterRegistry.class)
                            .get("shortgate.guard.ready")
                            .gauge()
                            .value())
                    .isEqualTo(1);
        });
    }

    private static List<Integer> flood(RunningApp pod, int requests) {
        WebClient client = WebClient.create("http://127.0.0.1:" + pod.port());
        return Flux.range(0, requests)
                .flatMap(
                        i -> client.get().uri("/" + randomCode()).exchangeToMono(response -> response.releaseBody()
                                .thenReturn(response.statusCode().value())),
                        4)
                .collectList()
                .block(Duration.ofSeconds(120));
    }

    private static String randomCode() {
        StringBuilder code = new StringBuilder(7);
        for (int i = 0; i < 7; i++) {
            code.append(ALPHABET.charAt(ThreadLocalRandom.current().nextInt(ALPHABET.length())));
        }
        return code.toString();
    }

    /** Redis calls of lookups that failed: the link's GET, or the guard's read after a miss. */
    private static double redisUnanswered(RunningApp pod) {
        MeterRegistry registry = pod.bean(MeterRegistry.class);
        return registry.get("shortgate.lookups")
                        .tag("tier", "redis")
                        .tag("result", "error")
                        .counter()
                        .count()
                + registry.get("shortgate.redis.errors")
                        .tag("operation", "guard")
                        .counter()
                        .count();
    }

    private static double dbLookups(RunningApp pod) {
        return pod.bean(MeterRegistry.class).get("shortgate.lookups").tag("tier", "db").counters().stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }
}
