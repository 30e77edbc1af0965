package dev.shortgate.visit.counts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;

import dev.shortgate.support.Pods;
import dev.shortgate.support.TestServers;
import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.MultiRowSql;
import dev.shortgate.visit.VisitId;
import dev.shortgate.visit.VisitProperties;
import dev.shortgate.visit.VisitRetention;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.r2dbc.spi.ConnectionFactoryOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.scheduler.Schedulers;

/** The count path and raw retention on real MariaDB, with two pods sharing one database. */
class VisitAggregatesIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .count(2)
            .with("shortgate.visit.counts-flush-interval", "200ms")
            .with("shortgate.visit.sketch-flush-interval", "200ms")
            .with("shortgate.visit.write-timeout", "4s")
            .with("shortgate.visit.retry-max-backoff", "1s")
            .with("shortgate.visit.retention-batch-size", "2");

    @Test
    void countsDimensionsAndUniqueVisitorsOfTwoPodsAddUp() {
        String code = create("https://example.com/two-pods");
        for (int i = 0; i < 300; i++) {
            visit(
                    pods.a().web(),
                    code,
                    "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125." + (i % 3));
        }
        for (int i = 0; i < 200; i++) {
            visit(
                    pods.b().web(),
                    code,
                    "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125." + (i % 5));
        }

        await().atMost(Duration.ofSeconds(60))
                .until(() -> sum("SELECT SUM(visits) FROM link_stats", code) == 500
                        && sum("SELECT COUNT(*) FROM visit_sketch", code) == 2);
        // one row per day for the browser, OS and device class of each agent: Firefox 125.x on Linux is one
        assertThat(sum("SELECT SUM(visits) FROM visit_dim_stats WHERE dim = 7 AND", code))
                .isEqualTo(500);
        assertThat(sum("SELECT COUNT(*) FROM visit_dim_stats WHERE dim = 7 AND", code))
                .isEqualTo(1);
        assertThat(sum("SELECT COUNT(*) FROM visit_dim_stats WHERE dim IN (2, 3, 4) AND", code))
                .isZero();
        pods.b()
                .web()
                .get()
                .uri("/api/v1/links/{code}/stats?bots=true", code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.total")
                .isEqualTo(500)
                .jsonPath("$.visits.bots")
                .isEqualTo(0)
                .jsonPath("$.uniqueVisitors")
                .isEqualTo(5) // one address, five agents; small sets are exact
                .jsonPath("$.topBrowsers[0].label")
                .isEqualTo("Firefox")
                .jsonPath("$.topBrowsers[0].visits")
                .isEqualTo(500)
                .jsonPath("$.topOperatingSystems[0].label")
                .isEqualTo("Linux")
                .jsonPath("$.topOperatingSystems[0].visits")
                .isEqualTo(500)
                .jsonPath("$.topDeviceClasses[0].label")
                .isEqualTo("Desktop")
                .jsonPath("$.topDeviceClasses[0].visits")
                .isEqualTo(500);
    }

    @Test
    void aRetriedFlushWhoseCommitWentThroughIsNotCountedTwice() {
        String code = create("https://example.com/retried-flush");
        VisitCountWriter writer = new VisitCountWriter(
                pods.a().bean(MultiRowSql.class),
                TransactionalOperator.create(pods.a().bean(ReactiveTransactionManager.class)),
                Clock.systemUTC());
        LocalDate day = LocalDate.of(2026, 1, 2);
        VisitCountFlusher.Flush flush = new VisitCountFlusher.Flush(
                new byte[] {1, 2, 3, 4, 5, 6, 7, 8},
                42,
                List.of(new VisitCountFlusher.DayCount(code, day, 7, 2)),
                List.of(new VisitCountFlusher.DimCount(code, day, Dimension.COUNTRY, "GB", 7, 2)));

        writer.write(flush).block(Duration.ofSeconds(30));
        writer.write(flush).block(Duration.ofSeconds(30)); // the same flush again: its acknowledgement was lost

        assertThat(sum("SELECT SUM(visits) FROM link_stats", code)).isEqualTo(7);
        assertThat(sum("SELECT SUM(bot_visits) FROM link_stats", code)).isEqualTo(2);
        assertThat(sum("SELECT SUM(visits) FROM visit_dim_stats WHERE", code)).isEqualTo(7);
    }

    @Test
    void monthRollUpsEqualTheSumOfTheirDaysAcrossMonthBoundariesAndStatsAddBothUp() {
        String code = create("https://example.com/months");
        VisitCountWriter writer = new VisitCountWriter(
                pods.a().bean(MultiRowSql.class),
                TransactionalOperator.create(pods.a().bean(ReactiveTransactionManager.class)),
                Clock.systemUTC());
        byte[] pod = {9, 8, 7, 6, 5, 4, 3, 2};
        writer.write(new VisitCountFlusher.Flush(
                        pod,
                        1,
                        List.of(
                                day(code, "2026-01-30", 7, 1),
                                day(code, "2026-01-31", 3, 0),
                                day(code, "2026-02-01", 5, 2),
                                day(code, "2026-02-28", 6, 6),
                                day(code, "2026-03-01", 2, 0)),
                        List.of(
                                dim(code, "2026-01-30", "GB", 5, 1),
                                dim(code, "2026-01-30", Dimension.OTHER, 2, 0),
                                dim(code, "2026-01-31", "GB", 3, 0),
                                dim(code, "2026-02-01", "GB", 4, 2),
                                dim(code, "2026-02-01", "FR", 1, 0),
                                dim(code, "2026-02-28", Dimension.OTHER, 6, 6),
                                dim(code, "2026-03-01", "FR", 2, 0))))
                .block(Duration.ofSeconds(30));
        writer.write(new VisitCountFlusher.Flush(
                        pod,
                        2,
                        List.of(day(code, "2026-02-01", 1, 0), day(code, "2026-03-31", 10, 0)),
                        List.of(dim(code, "2026-02-01", "GB", 1, 0), dim(code, "2026-03-31", "GB", 10, 0))))
                .block(Duration.ofSeconds(30));
        new VisitRetention(
                        pods.a().bean(DatabaseClient.class),
                        pods.a().bean(VisitProperties.class),
                        Clock.systemUTC(),
                        Schedulers.parallel(),
                        new SimpleMeterRegistry())
                .deleteOldRows()
                .block(Duration.ofSeconds(30)); // raw retention leaves every aggregate alone

        String daysOfMonth = "FROM visit_dim_stats d WHERE d.code = m.code AND d.dim = m.dim AND d.label = m.label "
                + "AND d.stat_date >= m.stat_month AND d.stat_date < m.stat_month + INTERVAL 1 MONTH)";
        assertThat(pods.database()
                        .queryForLong("SELECT COUNT(*) FROM visit_dim_month m WHERE m.code = '" + code
                                + "' AND (m.visits <> (SELECT SUM(d.visits) " + daysOfMonth
                                + " OR m.bot_visits <> (SELECT "
                                + "SUM(d.bot_visits) " + daysOfMonth + ")"))
                .isZero();
        assertThat(sum("SELECT SUM(visits) FROM visit_dim_month WHERE", code)).isEqualTo(34);
        assertThat(sum("SELECT SUM(visits) FROM link_stats WHERE", code)).isEqualTo(34);
        assertThat(sum("SELECT COUNT(*) FROM visit_dim_month WHERE", code)).isEqualTo(7);
        assertThat(sum("SELECT visits FROM visit_dim_month WHERE stat_month = '2026-02-01' AND label = 'GB' AND", code))
                .isEqualTo(5);
        // February whole from the roll-up, January 31 and March 1 from the days
        pods.a()
                .web()
                .get()
                .uri("/api/v1/links/{code}/stats?from=2026-01-31&to=2026-03-01&bots=true", code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.total")
                .isEqualTo(17)
                .jsonPath("$.topCountries.length()")
                .isEqualTo(3)
                .jsonPath("$.topCountries[0].label")
                .isEqualTo("GB")
                .jsonPath("$.topCountries[0].visits")
                .isEqualTo(8)
                .jsonPath("$.topCountries[1].label")
                .isEqualTo(Dimension.OTHER)
                .jsonPath("$.topCountries[1].visits")
                .isEqualTo(6)
                .jsonPath("$.topCountries[2].label")
                .isEqualTo("FR")
                .jsonPath("$.topCountries[2].visits")
                .isEqualTo(3);
        pods.a()
                .web()
                .get()
                .uri("/api/v1/links/{code}/stats?from=2026-01-31&to=2026-03-01", code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.topCountries.length()")
                .isEqualTo(2) // "other" was all bots
                .jsonPath("$.topCountries[0].visits")
                .isEqualTo(6)
                .jsonPath("$.topCountries[1].visits")
                .isEqualTo(3);
        // a late count on a settled day changes the totals the cached sums were read with, so they are read again
        writer.write(new VisitCountFlusher.Flush(
                        pod, 3, List.of(day(code, "2026-01-31", 2, 0)), List.of(dim(code, "2026-01-31", "GB", 2, 0))))
                .block(Duration.ofSeconds(30));
        pods.a()
                .web()
                .get()
                .uri("/api/v1/links/{code}/stats?from=2026-01-31&to=2026-03-01&bots=true", code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.topCountries[0].visits")
                .isEqualTo(10);
        // three whole months, all from the roll-up
        pods.a()
                .web()
                .get()
                .uri("/api/v1/links/{code}/stats?from=2026-01-01&to=2026-03-31&bots=true", code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.topCountries[0].label")
                .isEqualTo("GB")
                .jsonPath("$.topCountries[0].visits")
                .isEqualTo(25)
                .jsonPath("$.topCountries[1].visits")
                .isEqualTo(8)
                .jsonPath("$.topCountries[2].visits")
                .isEqualTo(3);
    }

    @Test
    void uniqueVisitorsOverWholeMonthsAreTheSameFromTheMonthCacheAsFromEveryDaySketch() {
        String code = create("https://example.com/month-sketches");
        VisitCountWriter writer = new VisitCountWriter(
                pods.a().bean(MultiRowSql.class),
                TransactionalOperator.create(pods.a().bean(ReactiveTransactionManager.class)),
                Clock.systemUTC());
        LocalDate from = LocalDate.parse("2026-01-25");
        LocalDate to = LocalDate.parse("2026-03-05");
        List<UniqueVisitors.Row> rows = new java.util.ArrayList<>();
        List<byte[]> inRange = new java.util.ArrayList<>();
        for (LocalDate day = LocalDate.parse("2026-01-20");
                !day.isAfter(LocalDate.parse("2026-03-10"));
                day = day.plusDays(1)) {
            for (int pod = 0; pod < 2; pod++) {
                org.apache.datasketches.hll.HllSketch sketch = new org.apache.datasketches.hll.HllSketch(
                        UniqueVisitors.LG_K, org.apache.datasketches.hll.TgtHllType.HLL_4);
                for (int i = 0; i < 600; i++) { // the two pods share half their visitors of the day
                    sketch.update(day.toEpochDay() * 10_000 + pod * 300 + i);
                }
                byte[] bytes = sketch.toCompactByteArray();
                rows.add(new UniqueVisitors.Row(
                        code, day.toEpochDay(), new byte[] {(byte) pod, 1, 2, 3, 4, 5, 6, 7}, bytes, bytes));
                if (!day.isBefore(from) && !day.isAfter(to)) {
                    inRange.add(bytes);
                }
            }
        }
        writer.writeSketches(rows).block(Duration.ofSeconds(30));
        long expected = UniqueVisitors.estimate(inRange);
        assertThat((double) expected).isCloseTo(40 * 900, org.assertj.core.data.Percentage.withPercentage(5));

        for (int request = 0; request < 2; request++) { // the first fills the cache of February, the second reads it
            pods.a()
                    .web()
                    .get()
                    .uri("/api/v1/links/{code}/stats?from={from}&to={to}", code, from, to)
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectBody()
                    .jsonPath("$.uniqueVisitors")
                    .isEqualTo((int) expected);
        }
    }

    @Test
    void agentRowsAndRowsOfTheirOwnAddUpInTheBrowserOsAndDeviceListsOverDaysAndMonths() {
        String code = create("https://example.com/agents");
        VisitCountWriter writer = new VisitCountWriter(
                pods.a().bean(MultiRowSql.class),
                TransactionalOperator.create(pods.a().bean(ReactiveTransactionManager.class)),
                Clock.systemUTC());
        String firefox = Dimension.agentLabel("Firefox", "Linux", "Desktop");
        writer.write(new VisitCountFlusher.Flush(
                        new byte[] {7, 7, 7, 7, 7, 7, 7, 7},
                        1,
                        List.of(day(code, "2026-01-31", 5, 0), day(code, "2026-02-10", 5, 0)),
                        List.of(
                                agent(code, "2026-01-31", Dimension.AGENT, firefox, 3),
                                // past the day's combinations, or written before agent rows were
                                agent(code, "2026-01-31", Dimension.BROWSER, "Firefox", 2),
                                agent(code, "2026-01-31", Dimension.OS, "Linux", 2),
                                agent(code, "2026-01-31", Dimension.DEVICE_CLASS, "Desktop", 2),
                                agent(code, "2026-02-10", Dimension.AGENT, firefox, 1),
                                agent(
                                        code,
                                        "2026-02-10",
                                        Dimension.AGENT,
                                        Dimension.agentLabel("Chrome", "Windows NT", "Desktop"),
                                        4))))
                .block(Duration.ofSeconds(30));

        // February whole from the roll-up, January 31 from the days
        pods.b()
                .web()
                .get()
                .uri("/api/v1/links/{code}/stats?from=2026-01-31&to=2026-02-28", code)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.visits.total")
                .isEqualTo(10)
                .jsonPath("$.topBrowsers[*].label")
                .isEqualTo(List.of("Firefox", "Chrome"))
                .jsonPath("$.topBrowsers[*].visits")
                .isEqualTo(List.of(6, 4))
                .jsonPath("$.topOperatingSystems[*].label")
                .isEqualTo(List.of("Linux", "Windows NT"))
                .jsonPath("$.topOperatingSystems[*].visits")
                .isEqualTo(List.of(6, 4))
                .jsonPath("$.topDeviceClasses[*].label")
                .isEqualTo(List.of("Desktop"))
                .jsonPath("$.topDeviceClasses[*].visits")
                .isEqualTo(List.of(10));
        assertThat(sum("SELECT SUM(visits) FROM visit_dim_month WHERE dim = 7 AND", code))
                .isEqualTo(8);
    }

    private static VisitCountFlusher.DimCount agent(
            String code, String day, Dimension dimension, String label, long visits) {
        return new VisitCountFlusher.DimCount(code, LocalDate.parse(day), dimension, label, visits, 0);
    }

    private static VisitCountFlusher.DayCount day(String code, String day, long visits, long bots) {
        return new VisitCountFlusher.DayCount(code, LocalDate.parse(day), visits, bots);
    }

    private static VisitCountFlusher.DimCount dim(String code, String day, String label, long visits, long bots) {
        return new VisitCountFlusher.DimCount(code, LocalDate.parse(day), Dimension.COUNTRY, label, visits, bots);
    }

    @Test
    void retentionDeletesOnlyRawRowsOlderThanTheRetentionAndKeepsTheCounts() {
        String code = create("https://example.com/retention");
        Instant now = Instant.parse("2026-11-22T12:00:00Z");
        VisitId ids = new VisitId();
        for (int daysAgo : List.of(400, 200, 91, 91, 91, 89, 30, 0)) {
            Instant at = now.minus(Duration.ofDays(daysAgo));
            pods.database()
                    .update("INSERT INTO visit (id, code, visited_at, client_id, bot) VALUES (X'"
                            + HexFormat.of().formatHex(ids.next(at)) + "', '" + code + "', '"
                            + at.toString().replace("T", " ").replace("Z", "") + "', 'c', FALSE)");
        }
        pods.database()
                .update("INSERT INTO link_stats (code, stat_date, visits) VALUES ('" + code + "', '2025-10-18', 1)");
        MeterRegistry registry = new SimpleMeterRegistry();
        VisitRetention retention = new VisitRetention(
                pods.a().bean(DatabaseClient.class),
                pods.a().bean(VisitProperties.class),
                Clock.fixed(now, ZoneOffset.UTC),
                Schedulers.parallel(),
                registry);

        Long deleted = retention.deleteOldRows().block(Duration.ofSeconds(30));

        assertThat(deleted).isEqualTo(5); // in batches of two
        assertThat(sum("SELECT COUNT(*) FROM visit", code)).isEqualTo(3);
        assertThat(sum("SELECT COUNT(*) FROM visit WHERE visited_at >= '2026-08-24' AND", code))
                .isEqualTo(3);
        assertThat(sum("SELECT SUM(visits) FROM link_stats", code)).isEqualTo(1);
        assertThat(registry.get("shortgate.visits.retention.deleted").counter().count())
                .isEqualTo(5);
    }

    @Test
    void rawWritesStuckBehindATableLockTimeOutAndAreWrittenAfterTheUnlockWhileCountsGoOn() throws Exception {
        String code = create("https://example.com/locked");
        MeterRegistry registry = pods.a().bean(MeterRegistry.class);
        double retriesBefore = registry.get("shortgate.visits.write.retries")
                .tag("path", "raw")
                .counter()
                .count();
        try (Connection lock = jdbc();
                Statement statement = lock.createStatement()) {
            statement.execute("LOCK TABLES visit WRITE");
            for (int i = 0; i < 20; i++) {
                visit(pods.a().web(), code, "Mozilla/5.0 locked/" + i);
            }
            // the counts do not wait for the raw rows
            await().atMost(Duration.ofSeconds(60)).until(() -> sum("SELECT SUM(visits) FROM link_stats", code) == 20);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> registry.get("shortgate.visits.write.retries")
                                    .tag("path", "raw")
                                    .counter()
                                    .count()
                            > retriesBefore);
            statement.execute("UNLOCK TABLES");
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> sum("SELECT COUNT(*) FROM visit", code) == 20);
        assertThat(registry.get("shortgate.visits.dropped")
                        .tag("reason", "write_failed")
                        .counter()
                        .count())
                .isZero();
    }

    private static void visit(
            org.springframework.test.web.reactive.server.WebTestClient web, String code, String agent) {
        web.get()
                .uri("/" + code)
                .header("User-Agent", agent)
                .exchange()
                .expectStatus()
                .isFound();
    }

    /** The first column of {@code select} over this code's rows; {@code select} may end in "WHERE … AND". */
    private static long sum(String select, String code) {
        String where = select.endsWith(" AND") || select.endsWith("WHERE") ? " " : " WHERE ";
        return pods.database().queryForLong(select + where + "code = '" + code + "'");
    }

    private static String create(String url) {
        return pods.a().shorten(url);
    }

    private static Connection jdbc() throws Exception {
        ConnectionFactoryOptions options = ConnectionFactoryOptions.parse(TestServers.r2dbcUrl());
        Object port = options.getValue(ConnectionFactoryOptions.PORT);
        Object user = options.getValue(ConnectionFactoryOptions.USER);
        Object password = options.getValue(ConnectionFactoryOptions.PASSWORD);
        return DriverManager.getConnection(
                "jdbc:mariadb://" + options.getValue(ConnectionFactoryOptions.HOST) + (port != null ? ":" + port : "")
                        + "/" + pods.database().name(),
                user == null ? "root" : user.toString(),
                password == null ? "" : password.toString());
    }
}
