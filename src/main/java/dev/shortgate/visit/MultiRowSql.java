package dev.shortgate.visit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.r2dbc.spi.Result;
import io.r2dbc.spi.Statement;
import org.reactivestreams.Publisher;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkers;
import org.springframework.r2dbc.core.binding.BindMarkersFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Multi-row statements for the visit writers, and how to run them. On MySQL and MariaDB every value is written as
 * a {@link MySqlLiterals literal} (r2dbc-mysql encodes each bound value through a publisher of its own, which a
 * JFR profile put at about 30% of the application's CPU for 7,000-value batches); elsewhere (H2) as the driver's
 * bind markers, bound by index through the R2DBC {@link Statement}.
 */
public final class MultiRowSql {

    /** A statement in the driver's bind-marker syntax and its values by index ({@code null} binds a NULL string). */
    public record Sql(String text, Object[] values) {
        static Sql of(String text) {
            return new Sql(text, new Object[0]);
        }
    }

    /** Texts shorter than this are encoded each time: looking them up would cost about as much. */
    static final int REUSED_TEXT_LENGTH = 16;
    /** Distinct texts whose literal one statement keeps. */
    static final int MAX_REUSED_TEXTS = 4_096;

    private final DatabaseClient db;
    private final BindMarkersFactory markers;
    private final boolean inlineLiterals;
    private final long lockWaitSeconds;

    /**
     * @param inlineLiterals  write values as literals (MySQL and MariaDB only)
     * @param lockWaitSeconds the session's lock waits during a write (MySQL and MariaDB); 0 leaves them alone
     */
    MultiRowSql(DatabaseClient db, BindMarkersFactory markers, boolean inlineLiterals, long lockWaitSeconds) {
        this.db = db;
        this.markers = markers;
        this.inlineLiterals = inlineLiterals;
        this.lockWaitSeconds = lockWaitSeconds;
    }

    /**
     * The statement that bounds this session's lock waits, so a write that cannot get a lock (a table lock,
     * {@code FLUSH TABLES WITH READ LOCK}) fails and rolls back instead of hanging; {@code null} where there is none.
     */
    public Sql lockWaits() {
        return inlineLiterals && lockWaitSeconds > 0
                ? Sql.of("SET SESSION lock_wait_timeout = " + lockWaitSeconds + ", innodb_lock_wait_timeout = "
                        + lockWaitSeconds)
                : null;
    }

    /** {@code prefix (..), (..), ... suffix}, every row with the same number of values. */
    public Sql multiRow(String prefix, List<Object[]> rows, String suffix) {
        int columns = rows.isEmpty() ? 0 : rows.get(0).length;
        StringBuilder sql = new StringBuilder(
                        prefix.length() + suffix.length() + (inlineLiterals ? columns * 64 : rows.size() * columns * 5))
                .append(prefix);
        BindMarkers bind = inlineLiterals ? null : markers.create();
        Map<String, String> repeated = inlineLiterals ? new HashMap<>() : null;
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
                    literal(sql, row[c], repeated);
                } else {
                    sql.append(bind.next().getPlaceholder());
                    values[n++] = row[c];
                }
            }
            sql.append(')');
            if (r == 0 && inlineLiterals && rows.size() > 1) {
                // sized from the first row (and an eighth more): a 1,000-row statement is about 450 kB, and each
                // doubling of a buffer too small copies it and leaves the old one to the collector
                int first = sql.length() - prefix.length() + 2;
                sql.ensureCapacity(sql.length() + suffix.length() + first * (rows.size() - 1) / 8 * 9);
            }
        }
        return new Sql(sql.append(suffix).toString(), values);
    }

    /**
     * A value's literal; a text of at least {@value #REUSED_TEXT_LENGTH} characters is encoded once per statement
     * and copied when it comes again (the rows of a batch repeat a few user agents, referrers and rule targets).
     */
    private static void literal(StringBuilder sql, Object value, Map<String, String> repeated) {
        if (!(value instanceof String text) || text.length() < REUSED_TEXT_LENGTH) {
            MySqlLiterals.literal(sql, value);
            return;
        }
        String known = repeated.get(text);
        if (known == null) {
            known = MySqlLiterals.textLiteral(text);
            if (repeated.size() < MAX_REUSED_TEXTS) {
                repeated.put(text, known);
            }
        }
        sql.append(known);
    }

    /** The client for plain statements. */
    public DatabaseClient db() {
        return db;
    }

    /** Runs one statement; the rows it changed. */
    public Mono<Long> execute(Sql sql) {
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
            return Flux.from(statement.execute())
                    .flatMap(Result::getRowsUpdated)
                    .reduce(0L, Long::sum);
        });
    }

    /** Runs the statements in order, after the lock-wait bound; the caller makes it one transaction. */
    public Mono<Void> executeAll(List<Sql> statements) {
        return executeAll(Flux.fromIterable(statements));
    }

    /**
     * Runs the statements in order, after the lock-wait bound, asking for the next one only once the last has run:
     * a publisher that builds each statement when asked keeps only one statement's text at a time (the caller makes
     * it one transaction).
     */
    public Mono<Void> executeAll(Publisher<Sql> statements) {
        Sql waits = lockWaits();
        Flux<Sql> all = waits == null ? Flux.from(statements) : Flux.concat(Mono.just(waits), statements);
        return all.concatMap(this::execute, 0).then();
    }
}
