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
    private static final int COLUMNS = 14;
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
        if (inlineLiterals) {
            return insertVisitsInline(rows);
        }
        BindMarkers bind = markers.create();
        StringBuilder sql = new StringBuilder(INSERT_VISITS.length() + rows.size() * COLUMNS * 5).append(INSERT_VISITS);
        Object[] values = new Object[rows.size() * COLUMNS];
        int n = 0;
        for (int i = 0; i < rows.size(); i++) {
            Visit v = rows.get(i);
            sql.append(i == 0 ? "(" : ", (");
            for (int c = 0; c < COLUMNS; c++) {
                sql.append(bind.next().getPlaceholder()).append(c == COLUMNS - 1 ? ")" : ", ");
            }
            values[n++] = v.id();
            values[n++] = v.code();
            values[n++] = LocalDateTime.ofInstant(v.visitedAt(), ZoneOffset.UTC);
            values[n++] = v.clientId();
            values[n++] = v.ip();
            values[n++] = v.userAgent();
            values[n++] = v.referer();
            values[n++] = v.country();
            values[n++] = v.city();
            values[n++] = v.browser();
            values[n++] = v.browserVersion();
            values[n++] = v.os();
            values[n++] = v.deviceClass();
            values[n++] = v.bot();
        }
        return new Sql(sql.toString(), values);
    }

    private static Sql insertVisitsInline(List<Visit> rows) {
        StringBuilder sql = new StringBuilder(INSERT_VISITS.length() + rows.size() * 512).append(INSERT_VISITS);
        for (int i = 0; i < rows.size(); i++) {
            Visit v = rows.get(i);
            sql.append(i == 0 ? "(" : ", (");
            MySqlLiterals.binary(sql, v.id()).append(", ");
            MySqlLiterals.text(sql, v.code()).append(", ");
            MySqlLiterals.dateTime(sql, v.visitedAt()).append(", ");
            MySqlLiterals.text(sql, v.clientId()).append(", ");
            MySqlLiterals.text(sql, v.ip()).append(", ");
            MySqlLiterals.text(sql, v.userAgent()).append(", ");
            MySqlLiterals.text(sql, v.referer()).append(", ");
            MySqlLiterals.text(sql, v.country()).append(", ");
            MySqlLiterals.text(sql, v.city()).append(", ");
            MySqlLiterals.text(sql, v.browser()).append(", ");
            MySqlLiterals.text(sql, v.browserVersion()).append(", ");
            MySqlLiterals.text(sql, v.os()).append(", ");
            MySqlLiterals.text(sql, v.deviceClass()).append(", ");
            MySqlLiterals.bool(sql, v.bot()).append(')');
        }
        return new Sql(sql.toString(), new Object[0]);
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
        if (inlineLiterals) {
            StringBuilder sql = new StringBuilder(UPSERT_STATS.length() + counts.size() * 64).append(UPSERT_STATS);
            boolean first = true;
            for (Map.Entry<DayKey, long[]> entry : counts.entrySet()) {
                sql.append(first ? "(" : ", (");
                MySqlLiterals.text(sql, entry.getKey().code()).append(", ");
                MySqlLiterals.date(sql, entry.getKey().day()).append(", ")
                        .append(entry.getValue()[0]).append(", ").append(entry.getValue()[1]).append(')');
                first = false;
            }
            return new Sql(sql.append(ON_DUPLICATE).toString(), new Object[0]);
        }
        BindMarkers bind = markers.create();
        StringBuilder sql = new StringBuilder(UPSERT_STATS);
        Object[] values = new Object[counts.size() * 4];
        int n = 0;
        for (Map.Entry<DayKey, long[]> entry : counts.entrySet()) {
            sql.append(n == 0 ? "(" : ", (").append(bind.next().getPlaceholder()).append(", ")
                    .append(bind.next().getPlaceholder()).append(", ").append(bind.next().getPlaceholder())
                    .append(", ").append(bind.next().getPlaceholder()).append(')');
            values[n++] = entry.getKey().code();
            values[n++] = entry.getKey().day();
            values[n++] = entry.getValue()[0];
            values[n++] = entry.getValue()[1];
        }
        return new Sql(sql.append(ON_DUPLICATE).toString(), values);
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
