package dev.shortgate.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestRabbit;
import dev.shortgate.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shlink's RabbitMQ integration on the real broker and MariaDB: every redirect becomes one confirmed, persistent
 * JSON message on the durable queue named after the topic; a broker stopped under load costs events, counted, but
 * no redirect and no database visit; and once it is back, publishing resumes by itself.
 */
class RabbitEventsIT {

    static final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    static final JsonMapper json = JsonMapper.builder().build();

    static TestServers.Database database;
    static RunningApp app;
    static Connection broker;
    static Channel channel;

    @BeforeAll
    static void start() throws Exception {
        URI rabbit = TestRabbit.url();
        database = TestServers.newDatabase();
        app = RunningApp.start(Map.of(
                "spring.r2dbc.url", database.r2dbcUrl(),
                "spring.rabbitmq.addresses", rabbit.toString(),
                "shortgate.events.rabbitmq.enabled", "true",
                "shortgate.visit.flush-interval", "50ms",
                "shortgate.visit.counts-flush-interval", "100ms"));
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(rabbit);
        broker = factory.newConnection();
        channel = broker.createChannel();
    }

    @AfterAll
    static void stop() throws Exception {
        TestRabbit.start(); // whatever a failed test left behind
        for (AutoCloseable open : new AutoCloseable[] {app, database}) {
            if (open != null) {
                open.close();
            }
        }
        if (broker != null && broker.isOpen()) {
            broker.close();
        }
    }

    @BeforeEach
    void emptyTheQueues() throws Exception {
        if (!channel.isOpen()) {
            reconnect();
        }
        for (String topic : new String[] {Topics.NEW_VISIT, Topics.NEW_SHORT_URL}) {
            channel.exchangeDeclare(topic, "direct", true, false, null);
            channel.queueDeclare(topic, true, false, false, null);
            channel.queueBind(topic, topic, "");
            channel.queuePurge(topic);
        }
    }

    static void reconnect() throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(TestRabbit.url());
        broker = factory.newConnection();
        channel = broker.createChannel();
    }

    double meter(String name, String... tags) {
        var search = app.bean(MeterRegistry.class).find(name).tags(tags);
        return search.counter() == null ? 0 : search.counter().count();
    }

    double confirmed() {
        return meter("shortgate.events.confirmed", "sink", "rabbitmq");
    }

    double dropped() {
        return app
                .bean(MeterRegistry.class)
                .find("shortgate.events.dropped")
                .tag("sink", "rabbitmq")
                .counters()
                .stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }

    String create(String url) {
        Map<?, ?> created = app.web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url))
                .exchange()
                .expectStatus()
                .is2xxSuccessful()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody();
        return (String) created.get("code");
    }

    int redirect(String code) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/" + code))
                .header("User-Agent", "rabbit-it")
                .timeout(Duration.ofSeconds(10))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    long queued(String topic) throws Exception {
        return channel.queueDeclarePassive(topic).getMessageCount();
    }

    long visitsInDatabase(String code) {
        return database.queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'");
    }

    @Test
    void everyRedirectBecomesOneConfirmedPersistentMessageOnTheBoundQueue() throws Exception {
        double start = confirmed();
        String code = create("https://example.com/rabbit/steady");
        // the new short URL's message is queued before the broker's confirm of it comes back: wait for both
        await().atMost(Duration.ofSeconds(20))
                .until(() -> queued(Topics.NEW_SHORT_URL) == 1 && confirmed() >= start + 1);
        double before = confirmed();
        double droppedBefore = dropped();
        int n = 300;
        for (int i = 0; i < n; i++) {
            assertThat(redirect(code)).isEqualTo(302);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> queued(Topics.NEW_VISIT) == n);
        await().atMost(Duration.ofSeconds(10)).until(() -> confirmed() - before >= n);
        assertThat(confirmed() - before).isEqualTo(n);
        assertThat(dropped()).isEqualTo(droppedBefore);

        GetResponse message = channel.basicGet(Topics.NEW_VISIT, true);
        assertThat(message.getProps().getDeliveryMode()).isEqualTo(2);
        assertThat(message.getProps().getContentType()).isEqualTo("application/json");
        JsonNode payload = json.readTree(new String(message.getBody(), StandardCharsets.UTF_8));
        assertThat(payload.get("shortUrl").get("shortCode").asString()).isEqualTo(code);
        assertThat(payload.get("visit").get("userAgent").asString()).isEqualTo("rabbit-it");
        GetResponse link = channel.basicGet(Topics.NEW_SHORT_URL, true);
        assertThat(json.readTree(new String(link.getBody(), StandardCharsets.UTF_8))
                        .get("shortUrl")
                        .get("longUrl")
                        .asString())
                .isEqualTo("https://example.com/rabbit/steady");
    }

    @Test
    void aBrokerStoppedUnderLoadCostsEventsButNoRedirectAndNoVisitAndPublishingResumes() throws Exception {
        String code = create("https://example.com/rabbit/outage");
        double droppedBefore = dropped();
        AtomicBoolean stopped = new AtomicBoolean();
        int total = 0;
        try {
            for (int i = 0; i < 600; i++) {
                if (i == 150) {
                    TestRabbit.stop();
                    stopped.set(true);
                }
                if (i == 450) {
                    TestRabbit.start();
                    stopped.set(false);
                }
                assertThat(redirect(code)).as("redirect %d", i).isEqualTo(302);
                total++;
            }
        } finally {
            if (stopped.get()) {
                TestRabbit.start();
            }
        }
        int redirects = total;
        await().atMost(Duration.ofSeconds(30)).until(() -> visitsInDatabase(code) == redirects);
        assertThat(dropped() - droppedBefore)
                .as("events dropped while the broker was down")
                .isPositive();

        // Back up: publishing resumes by itself, with no restart of the application.
        reconnect();
        double confirmedBefore = confirmed();
        double droppedAfterOutage = dropped();
        int more = 100;
        for (int i = 0; i < more; i++) {
            assertThat(redirect(code)).isEqualTo(302);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> confirmed() - confirmedBefore >= more);
        assertThat(dropped()).isEqualTo(droppedAfterOutage);
        await().atMost(Duration.ofSeconds(30)).until(() -> visitsInDatabase(code) == redirects + more);
    }
}
