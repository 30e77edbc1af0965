package dev.shortgate.visit.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.support.Pods;
import dev.shortgate.system.database.DatabaseDialect;
import dev.shortgate.visit.MultiRowSql;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.VisitId;
import dev.shortgate.visit.enrich.GeoLocator;
import dev.shortgate.visit.enrich.VisitEnricher;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** The visit pipeline on real MariaDB, with the default settings: no trusted proxies. */
class VisitsIT {

    // Visits never touch Redis; leaving it out keeps this test to the database it is about.
    @RegisterExtension
    static final Pods pods = Pods.onMariaDb();

    @Test
    void tenThousandRedirectsBecomeTenThousandVisitRowsAndCounts() {
        String code = create("https://example.com/ten-thousand");
        int n = 10_000;
        WebClient client = WebClient.create("http://127.0.0.1:" + pods.app().port());

        Long found = Flux.range(0, n)
                .flatMap(
                        i -> client.get()
                                .uri("/" + code)
                                .header("User-Agent", "LoadTest/" + (i % 7))
                                .exchangeToMono(response -> response.releaseBody()
                                        .thenReturn(response.statusCode().value())),
                        64)
                .filter(status -> status == 302)
                .count()
                .block(Duration.ofMinutes(5));
        assertThat(found).isEqualTo(n);

        await().atMost(Duration.ofSeconds(120))
                .until(() ->
                        pods.database().queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'") == n);
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        pods.database().queryForLong("SELECT SUM(visits) FROM link_stats WHERE code = '" + code + "'")
                                == n);
        assertThat(pods.database().queryForLong("SELECT COUNT(DISTINCT id) FROM visit WHERE code = '" + code + "'"))
                .isEqualTo(n);
        MeterRegistry registry = pods.app().bean(MeterRegistry.class);
        assertThat(registry.get("shortgate.visits.dropped").counters())
                .allSatisfy(counter -> assertThat(counter.count()).isZero());
        assertThat(registry.get("shortgate.visits.written").counter().count()).isGreaterThanOrEqualTo(n);
        pods.app()
                .web()
                .get()
                .uri("/api/v1/links/{code}/stats?bots=true", code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.total")
                .isEqualTo(n);
    }

    @Test
    void clientSpoofingForwardedForDirectlyIsStoredWithItsRealAddress() {
        String code = create("https://example.com/spoofing");

        pods.app()
                .web()
                .get()
                .uri("/" + code)
                .header("X-Forwarded-For", "1.2.3.4")
                .header("Forwarded", "for=1.2.3.4")
                .exchange()
                .expectStatus()
                .isFound();

        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        pods.database().queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'") == 1);
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "' AND ip = '127.0.0.0'"))
                .isEqualTo(1);
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM visit WHERE ip LIKE '1.2.3.%'"))
                .isZero();
    }

    /**
     * On MySQL and MariaDB the writer sends values as hex literals rather than bound parameters; text that tries
     * to close a quote, escape, inject or smuggle a control character is stored exactly as it came.
     */
    @Test
    void hostileUserAgentsAndReferersAreStoredExactlyAsTheyCame() throws Exception {
        String code = create("https://example.com/hostile");
        List<String> hostile = List.of(
                "it's \"quoted\" \\ back\\slash",
                "'); DROP TABLE visit; --",
                "NUL\u0000inside",
                "emoji \uD83D\uDE00 and \u00e9",
                "CR\r\nLF\ttab",
                "\\'",
                "X'41'",
                "?",
                "$1 :name",
                "\u001a ctrl-Z",
                "_utf8mb4 X'27'",
                "",
                "a".repeat(4000));
        assertThat(pods.app().bean(DatabaseDialect.class))
                .as("the hex-literal path is the one under test")
                .isEqualTo(DatabaseDialect.MYSQL);
        DatabaseClient db = pods.app().bean(DatabaseClient.class);
        VisitBatchWriter writer = new VisitBatchWriter(
                pods.app().bean(MultiRowSql.class),
                TransactionalOperator.create(pods.app().bean(ReactiveTransactionManager.class)),
                new VisitEnricher(() -> null, GeoLocator.open(null), false),
                Schedulers.boundedElastic(),
                Mono.just(new byte[32]));
        VisitId ids = new VisitId();
        Instant at = Instant.parse("2026-11-22T08:30:00.123Z");
        List<RawVisit> batch = new ArrayList<>();
        for (String text : hostile) {
            batch.add(new RawVisit(
                    ids.next(at),
                    code,
                    at,
                    InetAddress.getByName("2001:db8::1"),
                    text,
                    "https://example.com/?q=" + text));
        }

        writer.write(batch).block(Duration.ofSeconds(30));

        List<List<String>> stored = db.sql(
                        "SELECT user_agent, referer, ip, visited_at FROM visit WHERE code = :code " + "ORDER BY id")
                .bind("code", code)
                .map(row -> List.of(
                        row.get("user_agent", String.class),
                        row.get("referer", String.class),
                        row.get("ip", String.class),
                        row.get("visited_at", LocalDateTime.class).toString()))
                .all()
                .collectList()
                .block(Duration.ofSeconds(10));
        assertThat(stored).extracting(row -> row.get(0)).containsExactlyElementsOf(hostile);
        assertThat(stored)
                .extracting(row -> row.get(1))
                .containsExactlyElementsOf(hostile.stream()
                        .map(text -> "https://example.com/?q=" + text)
                        .toList());
        assertThat(stored).allSatisfy(row -> assertThat(row.subList(2, 4))
                .containsExactly("2001:db8:0:0:0:0:0:0", "2026-11-22T08:30:00.123"));
        writer.write(batch).block(Duration.ofSeconds(30)); // a retry after a lost acknowledgement: no duplicates
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM visit WHERE code = '" + code + "'"))
                .isEqualTo(hostile.size());
    }

    private static String create(String url) {
        return pods.app().shorten(url);
    }
}
