package dev.shortgate.visit;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.r2dbc.spi.Result;
import io.r2dbc.spi.Statement;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkers;
import org.springframework.r2dbc.core.binding.BindMarkersFactory;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Writes one batch: enrich it and build its SQL on a worker thread, then, in one transaction, insert the visits as
 * multi-row INSERTs and upsert the per-link per-day counters of the whole batch with a single statement. The
 * transaction makes a retry safe: a failed batch leaves neither rows nor counts behind.
 *
 * <p>Statements are built with the driver's own bind markers ({@code ?} for MySQL, {@code $1} for H2) and bound by
 * index through the R2DBC {@link Statement}: a 500-row INSERT has 7,000 values, and binding them one by one
 * through {@link DatabaseClient}'s immutable named-parameter spec would copy its map on every value. Only the
 * cheap, linear binding runs on the driver's threads.
 */
final class VisitBatchWriter implements VisitRecorder.BatchWriter {

    /** Rows per INSERT statement: 14 values each keeps a statement well under every driver's limits. */
    static final int ROWS_PER_INSERT = 500;

    private static final String INSERT_VISITS = "INSERT INTO visit (id, code, visited_at, client_id, ip, user_agent, "
            + "referer, country, city, browser, browser_version, os, device_class, bot) VALUES ";
    private static final String UPSERT_STATS = "INSERT INTO link_stats (code, stat_date, visits, bot_visits) VALUES ";
    private static final String ON_DUPLICATE = " ON DUPLICATE KEY UPDATE visits = visits + VALUES(visits), "
            + "bot_visits = bot_visits + VALUES(bot_visits)";

    private final DatabaseClient db;
    private final BindMarkersFactory markers;
    private final TransactionalOperator transactions;
    private final VisitEnricher enricher;
    private final Scheduler workers;
    private final boolean inlineLiterals;
    private final Mono<byte[]> clientIdKey;

    /**
     * @param inlineLiterals write values as {@link MySqlLiterals} rather than bind them (MySQL and MariaDB only)
     * @param clientIdKey    key of the client-id HMAC; a batch waits for it (and is retried if it cannot be read)
     */
    VisitBatchWriter(DatabaseClient db, BindMarkersFactory markers, TransactionalOperator transactions,
                     VisitEnricher enricher, Scheduler workers, boolean inlineLiterals, Mono<byte[]> clientIdKey) {
        this.clientIdKey = clientIdKey;
        this.db = db;
        this.markers = markers;
        this.inlineLiterals = inlineLiterals;
        this.transactions = transactions;
        this.enricher = enricher;
        this.workers = workers;
    }

    @Override
    public Mono<Void> write(List<RawVisit> batch) {
        return clientIdKey
                .flatMap(key -> Mono.fromCallable(() -> statements(enricher.enrich(batch, key))).subscribeOn(workers))
                .flatMap(this::execute);
    }

    /** Runs the statements in order, in one transaction. */
    Mono<Void> execute(List<Sql> statements) {
        return Flux.fromIterable(statements)
                .concatMap(this::execute)
                .then()
                .as(transactions::transactional);
    }

    private Mono<Long> execute(Sql sql) {
        return db.inConnection(connection -> {
            Statement statement = connection.createStatement(sql.text());
            Object[] values = sql.values();
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    statement.bindNull(i, String.class); // every nullable column is a string column
                } else {
                    statement.bind(i, values[i]);
                }
            }
            return Flux.from(statement.execute()).flatMap(Result::getRowsUpdated).reduce(0L, Long::sum);
        });
    }

    /** The INSERTs (in chunks of {@link #ROWS_PER_INSERT}) and the counter upsert for these rows. */
    List<Sql> statements(List<Visit> rows) {
        List<Sql> statements = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += ROWS_PER_INSERT) {
            statements.add(insertVisits(rows.subList(from, Math.min(rows.size(), from + ROWS_PER_INSERT))));
        }
        statements.add(upsertStats(rows));
        return statements;
    }

    private Sql insertVisits(List<Visit> rows) {
        List<Object[]> values = new ArrayList<>(rows.size());
        for (Visit v : rows) {
            values.add(new Object[] {v.id(), v.code(), LocalDateTime.ofInstant(v.visitedAt(), ZoneOffset.UTC),
                    v.clientId(), v.ip(), v.userAgent(), v.referer(), v.country(), v.city(), v.browser(),
                    v.browserVersion(), v.os(), v.deviceClass(), v.bot()});
        }
        return multiRow(INSERT_VISITS, values, "");
    }

    /** One upsert for the batch, rows in key order so concurrent batches lock counters in the same order. */
    private Sql upsertStats(List<Visit> rows) {
        Map<DayKey, long[]> counts = new TreeMap<>();
        for (Visit v : rows) {
            long[] count = counts.computeIfAbsent(new DayKey(v.code(),
                    LocalDate.ofInstant(v.visitedAt(), ZoneOffset.UTC)), key -> new long[2]);
            count[0]++;
            if (v.bot()) {
                count[1]++;
            }
        }
        List<Object[]> values = new ArrayList<>(counts.size());
        counts.forEach((key, count) -> values.add(new Object[] {key.code(), key.day(), count[0], count[1]}));
        return multiRow(UPSERT_STATS, values, ON_DUPLICATE);
    }

    /**
     * {@code prefix (..), (..), ... suffix}: every value written as a {@link MySqlLiterals literal} on MySQL and
     * MariaDB, and as a bind marker with the value to bind by index elsewhere (H2).
     */
    private Sql multiRow(String prefix, List<Object[]> rows, String suffix) {
        int columns = rows.isEmpty() ? 0 : rows.get(0).length;
        StringBuilder sql = new StringBuilder(prefix.length() + suffix.length()
                + rows.size() * columns * (inlineLiterals ? 32 : 5)).append(prefix);
        BindMarkers bind = inlineLiterals ? null : markers.create();
        Object[] values = new Object[inlineLiterals ? 0 : rows.size() * columns];
        int n = 0;
        for (int r = 0; r < rows.size(); r++) {
            sql.append(r == 0 ? "(" : ", (");
            Object[] row = rows.get(r);
            for (int c = 0; c < row.length; c++) {
                if (c > 0) {
                    sql.append(", ");
                }
                if (inlineLiterals) {
                    MySqlLiterals.literal(sql, row[c]);
                } else {
                    sql.append(bind.next().getPlaceholder());
                    values[n++] = row[c];
                }
            }
            sql.append(')');
        }
        return new Sql(sql.append(suffix).toString(), values);
    }

    /** A statement in the driver's bind-marker syntax and its values by index ({@code null} binds a NULL string). */
    record Sql(String text, Object[] values) {
    }

    record DayKey(String code, LocalDate day) implements Comparable<DayKey> {
        @Override
        public int compareTo(DayKey other) {
            int byCode = code.compareTo(other.code);
            return byCode != 0 ? byCode : day.compareTo(other.day);
        }
    }
}
