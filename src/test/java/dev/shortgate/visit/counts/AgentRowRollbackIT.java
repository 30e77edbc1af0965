package dev.shortgate.visit.counts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.shortgate.support.Pods;
import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.MultiRowSql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * The rollback statements of ADR 25 on real MariaDB, in a database of their own (they rewrite every link's agent
 * rows): afterwards no agent row is left and the stats answer as before, from rows of their own only.
 */
class AgentRowRollbackIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb().count(1);

    @Test
    void theRollbackStatementsOfAdr25GiveAgentRowsBackAsRowsOfTheirOwnAndTheStatsStayTheSame() throws IOException {
        String code = create("https://example.com/rollback");
        VisitCountWriter writer = new VisitCountWriter(
                pods.a().bean(MultiRowSql.class),
                TransactionalOperator.create(pods.a().bean(ReactiveTransactionManager.class)),
                Clock.systemUTC());
        writer.write(new VisitCountFlusher.Flush(
                        new byte[] {5, 5, 5, 5, 5, 5, 5, 5},
                        1,
                        List.of(day(code, "2026-01-31", 6, 1), day(code, "2026-02-10", 5, 0)),
                        List.of(
                                dim(code, "2026-01-31", Dimension.BROWSER, "Firefox", 2, 0),
                                dim(
                                        code,
                                        "2026-01-31",
                                        Dimension.AGENT,
                                        Dimension.agentLabel("Firefox", "Linux", "Desktop"),
                                        3,
                                        1),
                                dim(
                                        code,
                                        "2026-01-31",
                                        Dimension.AGENT,
                                        Dimension.agentLabel("Ünï", null, "Phone"),
                                        1,
                                        0),
                                dim(
                                        code,
                                        "2026-02-10",
                                        Dimension.AGENT,
                                        Dimension.agentLabel("Firefox", "Linux", "Desktop"),
                                        1,
                                        0),
                                dim(
                                        code,
                                        "2026-02-10",
                                        Dimension.AGENT,
                                        Dimension.agentLabel("Chrome", "Linux", "Desktop"),
                                        4,
                                        0))))
                .block(Duration.ofSeconds(30));
        String before = stats(code);

        for (String statement : rollbackStatements()) {
            pods.database().update(statement);
        }

        assertThat(count("SELECT COUNT(*) FROM visit_dim_stats WHERE dim = 7")).isZero();
        assertThat(count("SELECT COUNT(*) FROM visit_dim_month WHERE dim = 7")).isZero();
        assertThat(count("SELECT visits FROM visit_dim_stats WHERE code = '" + code
                        + "' AND stat_date = '2026-01-31' AND dim = 2 AND label = 'Firefox'"))
                .isEqualTo(5);
        assertThat(count("SELECT bot_visits FROM visit_dim_month WHERE code = '" + code
                        + "' AND stat_month = '2026-01-01' AND dim = 4 AND label = 'Desktop'"))
                .isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM visit_dim_stats WHERE code = '" + code + "' AND dim = 3 AND label = ''"))
                .isZero(); // the phone's unknown OS stays uncounted
        assertThat(stats(code)).isEqualTo(before).contains("\"Linux\"", "\"Ünï\"");
    }

    /** The statements of the ADR's SQL block, in order. */
    private static List<String> rollbackStatements() throws IOException {
        String adr = Files.readString(Path.of("docs/adr/0025-one-row-per-agent.md"));
        Matcher block = Pattern.compile("```sql\n(.*?)```", Pattern.DOTALL).matcher(adr);
        assertThat(block.find()).as("the ADR's SQL block").isTrue();
        List<String> statements = List.of(block.group(1).split(";")).stream()
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
        assertThat(statements).hasSize(4);
        return statements;
    }

    private static String stats(String code) {
        return new String(
                pods.a()
                        .web()
                        .get()
                        .uri("/api/v1/links/{code}/stats?from=2026-01-31&to=2026-02-28&bots=true", code)
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody()
                        .returnResult()
                        .getResponseBody(),
                java.nio.charset.StandardCharsets.UTF_8);
    }

    private static long count(String sql) {
        return pods.database().queryForLong(sql);
    }

    private static VisitCountFlusher.DayCount day(String code, String day, long visits, long bots) {
        return new VisitCountFlusher.DayCount(code, LocalDate.parse(day), visits, bots);
    }

    private static VisitCountFlusher.DimCount dim(
            String code, String day, Dimension dimension, String label, long visits, long bots) {
        return new VisitCountFlusher.DimCount(code, LocalDate.parse(day), dimension, label, visits, bots);
    }

    private static String create(String url) {
        return pods.a().shorten(url);
    }
}
