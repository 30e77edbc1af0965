package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/** The visit pipeline on real MariaDB, with the default settings: no trusted proxies. */
class VisitsIT {

    static TestServers.Database database;
    static RunningApp app;

    @BeforeAll
    static void start() {
        database = TestServers.newDatabase();
        // Visits never touch Redis; leaving it out keeps this test to the database it is about.
        app = RunningApp.start(database.properties());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void tenThousandRedirectsBecomeTenThousandVisitRowsAndCounts() {
        String code = create("https://example.com/ten-thousand");
        int n = 10_000;
        WebClient client = WebClient.create("http://127.0.0.1:" + app.port());

        Long found = Flux.range(0, n)
                .flatMap(i -> client.get().uri("/" + code).header("User-Agent", "LoadTest/" + (i % 7))
                        .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value())), 64)
                .filter(status -> status == 302)
                .count()
                .block(Duration.ofMinutes(5));
        assertThat(found).isEqualTo(n);

        await().atMost(Duration.ofSeconds(120))
                .until(() -> database.queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'") == n);
        assertThat(database.queryForLong("SELECT SUM(visits) FROM link_stats WHERE code = '" + code + "'"))
                .isEqualTo(n);
        assertThat(database.queryForLong("SELECT COUNT(DISTINCT id) FROM visit WHERE code = '" + code + "'"))
                .isEqualTo(n);
        MeterRegistry registry = app.bean(MeterRegistry.class);
        assertThat(registry.get("shortgate.visits.dropped").counters())
                .allSatisfy(counter -> assertThat(counter.count()).isZero());
        assertThat(registry.get("shortgate.visits.written").counter().count()).isGreaterThanOrEqualTo(n);
        app.web().get().uri("/api/v1/links/{code}/stats?bots=true", code).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.totalVisits").isEqualTo(n);
    }

    @Test
    void clientSpoofingForwardedForDirectlyIsStoredWithItsRealAddress() {
        String code = create("https://example.com/spoofing");

        app.web().get().uri("/" + code).header("X-Forwarded-For", "1.2.3.4")
                .header("Forwarded", "for=1.2.3.4").exchange().expectStatus().isFound();

        await().atMost(Duration.ofSeconds(60))
                .until(() -> database.queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'") == 1);
        assertThat(database.queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code
                + "' AND ip = '127.0.0.0'")).isEqualTo(1);
        assertThat(database.queryForLong("SELECT COUNT(*) FROM visit WHERE ip LIKE '1.2.3.%'")).isZero();
    }

    private static String create(String url) {
        return app.web().post().uri("/api/v1/links").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url))
                .exchange().expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody().get("code").toString();
    }
}
