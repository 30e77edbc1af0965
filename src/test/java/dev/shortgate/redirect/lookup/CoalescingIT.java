package dev.shortgate.redirect.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.Pods;
import dev.shortgate.support.RunningApp;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * A stampede on one cold code (F8): 1,000 concurrent GETs on each of two pods make one Redis lookup and at most
 * one database query per pod; every request still gets its redirect.
 */
class CoalescingIT {

    static final int REQUESTS = 1_000;

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb().withRedis().count(2);

    @Test
    void thousandConcurrentGetsOfAColdCodeMakeOneBackendLoadPerPod() {
        String code = pods.a()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/stampede"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
        // cold everywhere: in no near cache and not in Redis, only in the database
        pods.a().bean(NearCache.class).invalidate(code);
        pods.a()
                .bean(ReactiveStringRedisTemplate.class)
                .delete(pods.redisPrefix() + "link:" + code)
                .block(Duration.ofSeconds(10));

        ConnectionProvider connections = ConnectionProvider.builder("stampede")
                .maxConnections(2 * REQUESTS)
                .pendingAcquireMaxCount(-1)
                .build();
        try {
            for (RunningApp pod : List.of(pods.a(), pods.b())) {
                double redis = lookups(pod, "redis");
                double db = lookups(pod, "db");
                WebClient client = WebClient.builder()
                        .baseUrl("http://127.0.0.1:" + pod.port())
                        .clientConnector(new ReactorClientHttpConnector(HttpClient.create(connections)))
                        .build();
                List<Integer> statuses = Flux.range(0, REQUESTS)
                        .flatMap(
                                i -> client.get().uri("/" + code).exchangeToMono(response -> response.releaseBody()
                                        .thenReturn(response.statusCode().value())),
                                REQUESTS)
                        .collectList()
                        .block(Duration.ofSeconds(120));

                assertThat(statuses).hasSize(REQUESTS).containsOnly(302);
                assertThat(lookups(pod, "redis") - redis)
                        .as("Redis lookups on one pod")
                        .isEqualTo(1);
                assertThat(lookups(pod, "db") - db)
                        .as("database lookups on one pod")
                        .isLessThanOrEqualTo(1);
            }
        } finally {
            connections.dispose();
        }
    }

    /** Lookups that reached a tier, whatever their result. */
    private static double lookups(RunningApp pod, String tier) {
        return pod.bean(MeterRegistry.class).get("shortgate.lookups").tag("tier", tier).counters().stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }
}
