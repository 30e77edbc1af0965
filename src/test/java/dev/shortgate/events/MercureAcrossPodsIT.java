package dev.shortgate.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two pods on one MariaDB and one Redis: a subscriber on pod A sees the visits that pod B takes, through the Redis
 * channel between the pods, and a token from one pod opens the hub of the other (same secret).
 */
class MercureAcrossPodsIT {

    static TestServers.Database database;
    static RunningApp podA;
    static RunningApp podB;

    @BeforeAll
    static void start() {
        String redis = TestServers.redisUrl();
        database = TestServers.newDatabase();
        Map<String, Object> settings = Map.of(
                "spring.r2dbc.url",
                database.r2dbcUrl(),
                "spring.data.redis.url",
                redis,
                "shortgate.redirect.redis.key-prefix",
                TestServers.newRedisPrefix(),
                "shortgate.events.mercure.channel",
                TestServers.newRedisPrefix() + "mercure",
                "shortgate.events.mercure.jwt-secret",
                "a-shared-secret-of-at-least-32-bytes!",
                "shortgate.events.redis.enabled",
                "true");
        podA = RunningApp.start(settings);
        podB = RunningApp.start(settings);
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable open : new AutoCloseable[] {podA, podB, database}) {
            try {
                if (open != null) {
                    open.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    @Test
    void aSubscriberOnOnePodSeesTheVisitsOfTheOther() {
        WebTestClient a = podA.web();
        WebTestClient b = podB.web();
        Map<?, ?> info = b.get()
                .uri("/rest/v3/mercure-info")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        String token = (String) info.get("token");
        Map<?, ?> created = b.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/across/pods"))
                .exchange()
                .expectStatus()
                .is2xxSuccessful()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        String code = (String) created.get("code");
        Flux<ServerSentEvent<String>> onA = a.get()
                .uri("/.well-known/mercure?topic={topic}", Topics.newShortUrlVisit(code))
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
                .getResponseBody()
                .filter(event -> event.data() != null);
        JsonMapper json = JsonMapper.builder().build();
        StepVerifier.create(onA.take(3))
                .then(() -> {
                    // A's stream is open; B publishes to other pods once it has heard A announce a subscriber.
                    org.awaitility.Awaitility.await()
                            .atMost(Duration.ofSeconds(10))
                            .until(() -> podB.bean(MercureFanOut.class).remoteInterest());
                    for (int i = 0; i < 3; i++) {
                        b.get().uri("/" + code).exchange().expectStatus().isFound();
                    }
                })
                .thenConsumeWhile(event -> {
                    var payload = json.readTree(event.data());
                    assertThat(payload.get("shortUrl").get("shortCode").asString())
                            .isEqualTo(code);
                    assertThat(payload.get("visit").get("redirectUrl").asString())
                            .isEqualTo("https://example.com/across/pods");
                    return true;
                })
                .expectComplete()
                .verify(Duration.ofSeconds(30));
        // The hub learns that the client went away when its stream is cancelled, just after the client's last event
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                        List.of(podA.bean(MercureHub.class).subscribers()))
                .containsExactly(0));
    }

    @Test
    void shlinksRedisTopicsCarryEveryVisitButThePerCodeTopicIsOptIn() throws Exception {
        String code = (String) podB.web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/redis/topics"))
                .exchange()
                .expectStatus()
                .is2xxSuccessful()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code");
        io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(TestServers.redisUrl());
        try (var connection = client.connectPubSub()) {
            java.util.List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.List<String> channels = new java.util.concurrent.CopyOnWriteArrayList<>();
            connection.addListener(new io.lettuce.core.pubsub.RedisPubSubAdapter<String, String>() {
                @Override
                public void message(String channel, String message) {
                    if (message.contains("\"shortCode\":\"" + code + "\"")) {
                        channels.add(channel);
                        messages.add(message);
                    }
                }
            });
            connection.sync().subscribe(Topics.NEW_VISIT, Topics.newShortUrlVisit(code));
            for (int i = 0; i < 5; i++) {
                podB.web().get().uri("/" + code).exchange().expectStatus().isFound();
            }
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> messages.size() >= 5);
            // Nothing more arrives, on the per-code channel above all (it is opt-in and off here).
            org.awaitility.Awaitility.await()
                    .during(Duration.ofMillis(500))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> channels.size() == 5);
            assertThat(channels).hasSize(5).containsOnly(Topics.NEW_VISIT);
            JsonMapper json = JsonMapper.builder().build();
            assertThat(json.readTree(messages.get(0))
                            .get("visit")
                            .get("redirectUrl")
                            .asString())
                    .isEqualTo("https://example.com/redis/topics");
        } finally {
            client.shutdown();
        }
    }
}
