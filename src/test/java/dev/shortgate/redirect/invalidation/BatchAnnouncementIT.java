package dev.shortgate.redirect.invalidation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.http.MediaType;
import reactor.core.publisher.Flux;

/**
 * Links made through the batch API are written through to Redis, every one of them, even by a cold pod on a loaded
 * CPU: 50,000 links as 50 batches of 1,000, two at a time, from the first request after startup, while
 * {@code stress-ng} keeps one of the machine's cores busy. Each batch announces its links in groups; every group's
 * {@code SET}s must reach Redis (not only those written before the first reply came back), and one that misses its
 * bound is retried in the background until it does.
 */
class BatchAnnouncementIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb().withRedis();

    @Test
    void everyLinkOfConcurrentBatchesMadeByAColdPodOnALoadedCpuIsInRedisAfterwards() throws Exception {
        int batches = 50;
        int size = 1000;
        Process hog = new ProcessBuilder("stress-ng", "--cpu", "1", "--timeout", "120s")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        List<String> codes;
        try {
            codes = seed(batches, size);
        } finally {
            hog.destroy();
            hog.waitFor();
        }
        assertThat(codes).hasSize(batches * size).doesNotContainNull();

        ReactiveStringRedisTemplate redis = pods.app().bean(ReactiveStringRedisTemplate.class);
        // A group that missed its bound is announced again in the background: give those retries their time.
        await("every link in Redis").atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            long held = Flux.fromIterable(codes)
                    .flatMap(code -> redis.hasKey(pods.redisPrefix() + "link:" + code), 64)
                    .filter(Boolean::booleanValue)
                    .count()
                    .block(Duration.ofMinutes(1));
            assertThat(held).as("links of the batches held in Redis").isEqualTo(batches * size);
        });
    }

    private static List<String> seed(int batches, int size) {
        return Flux.range(0, batches)
                .flatMap(
                        batch -> pods.app()
                                .web()
                                .post()
                                .uri("/api/v1/links/batch")
                                .contentType(MediaType.APPLICATION_JSON)
                                .bodyValue(Map.of("links", urls(batch, size)))
                                .exchange()
                                .returnResult(Map.class)
                                .getResponseBody(),
                        2)
                .flatMapIterable(answer -> (List<Map<String, Object>>) answer.get("results"))
                .map(result -> (String) result.get("code"))
                .collectList()
                .block(Duration.ofMinutes(3));
    }

    private static List<Map<String, Object>> urls(int batch, int size) {
        List<Map<String, Object>> links = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            links.add(Map.of("url", "https://example.com/batch-" + batch + "/item-" + i));
        }
        return links;
    }
}
