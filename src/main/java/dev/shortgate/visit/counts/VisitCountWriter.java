package dev.shortgate.visit.counts;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.MultiRowSql;
import dev.shortgate.visit.OrphanVisitType;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes count flushes and sketches to the aggregate tables. A flush is one transaction: first its id goes into
 * {@code visit_flush} with {@code INSERT IGNORE}; if the id was already there (an earlier attempt committed, and
 * only its acknowledgement was lost), nothing else is written. Otherwise the deltas are added with
 * {@code INSERT … ON DUPLICATE KEY UPDATE visits = visits + VALUES(visits)}, rows in key order so concurrent pods
 * take row locks in the same order. Dimension deltas go both to {@code visit_dim_stats} (per day) and, summed per
 * calendar month, to {@code visit_dim_month}, so a month row always equals the sum of its days. Orphan visits add
 * to {@code orphan_visit_stats}, per UTC day and type (every domain's), and those of the domains other than the
 * default one also to {@code orphan_visit_domain_stats}, per domain, day and type, in the same transaction.
 */
public final class VisitCountWriter implements VisitCountFlusher.CountWriter {

    static final int ROWS_PER_STATEMENT = 1000;
    static final int SKETCHES_PER_STATEMENT = 100;

    private static final String ADD = " ON DUPLICATE KEY UPDATE visits = visits + VALUES(visits), "
            + "bot_visits = bot_visits + VALUES(bot_visits)";

    private final MultiRowSql sql;
    private final TransactionalOperator transactions;
    private final Clock clock;

    public VisitCountWriter(MultiRowSql sql, TransactionalOperator transactions, Clock clock) {
        this.sql = sql;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * Each statement's text is built when the one before has run, so a flush holds one statement's text at a time,
     * not all of them for as long as its transaction takes (a chunk of 2,000 entries makes about 18 statements of
     * 60–80 kB each); the monthly roll-up and the orphans' sums are made when their turn comes too.
     */
    @Override
    public Mono<Void> write(VisitCountFlusher.Flush flush) {
        Flux<MultiRowSql.Sql> deltas = Flux.concat(
                statements(
                        () -> flush.days(),
                        rows -> sql.multiRow(
                                "INSERT INTO link_stats (code, stat_date, visits, bot_visits) VALUES ",
                                rows.stream()
                                        .map(d -> new Object[] {d.code(), d.day(), d.visits(), d.botVisits()})
                                        .toList(),
                                ADD)),
                statements(
                        () -> flush.dims(),
                        rows -> sql.multiRow(
                                "INSERT INTO visit_dim_stats (code, stat_date, dim, label, visits, bot_visits) VALUES ",
                                dimValues(rows),
                                ADD)),
                statements(
                        () -> months(flush.dims()),
                        rows -> sql.multiRow(
                                "INSERT INTO visit_dim_month (code, stat_month, dim, label, visits, bot_visits) VALUES ",
                                dimValues(rows),
                                ADD)),
                statements(
                        () -> orphansOfEveryDomain(flush.orphans()),
                        rows -> sql.multiRow(
                                "INSERT INTO orphan_visit_stats (stat_date, type, visits, bot_visits) VALUES ",
                                rows.stream()
                                        .map(o -> new Object[] {o.day(), o.type().id, o.visits(), o.botVisits()})
                                        .toList(),
                                ADD)),
                statements(
                        () -> flush.orphans().stream()
                                .filter(o -> o.domainId() != 0)
                                .toList(), // in key order already
                        rows -> sql.multiRow(
                                "INSERT INTO orphan_visit_domain_stats (domain_id, stat_date, type, visits, bot_visits) VALUES ",
                                rows.stream()
                                        .map(o -> new Object[] {
                                            o.domainId(), o.day(), o.type().id, o.visits(), o.botVisits()
                                        })
                                        .toList(),
                                ADD)));
        MultiRowSql.Sql claim = sql.multiRow(
                "INSERT IGNORE INTO visit_flush (writer, seq, flushed_at) VALUES ",
                List.<Object[]>of(new Object[] {
                    flush.writer(), flush.seq(), LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)
                }),
                "");
        MultiRowSql.Sql waits = sql.lockWaits();
        return Mono.defer(() -> (waits == null ? Mono.just(0L) : sql.execute(waits))
                        .then(sql.execute(claim))
                        .flatMap(claimed -> claimed == 0
                                ? Mono.<Void>empty()
                                : deltas.concatMap(sql::execute, 0).then()))
                .as(transactions::transactional);
    }

    /** The statements of these rows, {@link #ROWS_PER_STATEMENT} rows each (see the next). */
    private static <T> Flux<MultiRowSql.Sql> statements(
            Supplier<List<T>> rows, Function<List<T>, MultiRowSql.Sql> statement) {
        return statements(rows, ROWS_PER_STATEMENT, statement);
    }

    /**
     * The statements of these rows, {@code size} rows each, each built only when asked for (the rows too, when the
     * first is).
     */
    private static <T> Flux<MultiRowSql.Sql> statements(
            Supplier<List<T>> rows, int size, Function<List<T>, MultiRowSql.Sql> statement) {
        return Flux.defer(() -> {
            List<T> items = rows.get();
            return Flux.range(0, (items.size() + size - 1) / size)
                    .map(i -> statement.apply(items.subList(i * size, Math.min(items.size(), (i + 1) * size))));
        });
    }

    /** An {@code orphan_visit_stats} key, in the table's order. */
    private record DayType(LocalDate day, OrphanVisitType type) implements Comparable<DayType> {
        @Override
        public int compareTo(DayType o) {
            int c = day.compareTo(o.day);
            return c != 0 ? c : Integer.compare(type.id, o.type.id);
        }
    }

    /** The orphan counts summed over their domains, per day and type, in {@code orphan_visit_stats}' key order. */
    static List<VisitCountFlusher.OrphanCount> orphansOfEveryDomain(List<VisitCountFlusher.OrphanCount> orphans) {
        Map<DayType, long[]> sums = new TreeMap<>();
        for (VisitCountFlusher.OrphanCount o : orphans) {
            long[] sum = sums.computeIfAbsent(new DayType(o.day(), o.type()), k -> new long[2]);
            sum[0] += o.visits();
            sum[1] += o.botVisits();
        }
        List<VisitCountFlusher.OrphanCount> all = new ArrayList<>(sums.size());
        sums.forEach((k, v) -> all.add(new VisitCountFlusher.OrphanCount(k.day(), k.type(), 0, v[0], v[1])));
        return all;
    }

    @Override
    public Mono<Void> writeSketches(List<UniqueVisitors.Row> rows) {
        Flux<MultiRowSql.Sql> statements = statements(
                () -> rows,
                SKETCHES_PER_STATEMENT,
                chunk -> sql.multiRow(
                        "INSERT INTO visit_sketch (code, stat_date, writer, visitors, human_visitors) VALUES ",
                        chunk.stream()
                                .map(r -> new Object[] {
                                    r.code(),
                                    java.time.LocalDate.ofEpochDay(r.epochDay()),
                                    r.writer(),
                                    r.visitors(),
                                    r.humanVisitors()
                                })
                                .toList(),
                        " ON DUPLICATE KEY UPDATE visitors = VALUES(visitors), human_visitors = VALUES(human_visitors)"));
        return Mono.defer(() -> sql.executeAll(statements)).as(transactions::transactional);
    }

    @Override
    public Flux<VisitCountFlusher.Reset> resetsSince(Instant since) {
        return sql.db()
                .sql("SELECT code, reset_at FROM visit_reset WHERE reset_at >= :since")
                .bind("since", LocalDateTime.ofInstant(since, ZoneOffset.UTC))
                .map(row -> new VisitCountFlusher.Reset(
                        row.get("code", String.class),
                        row.get("reset_at", LocalDateTime.class).toInstant(ZoneOffset.UTC)))
                .all();
    }

    @Override
    public Mono<Void> deleteSketches(List<UniqueVisitors.Row> keys) {
        return Flux.fromIterable(keys)
                .concatMap(key -> sql.db()
                        .sql("DELETE FROM visit_sketch WHERE code = :code AND stat_date = :day AND writer = :writer")
                        .bind("code", key.code())
                        .bind("day", LocalDate.ofEpochDay(key.epochDay()))
                        .bind("writer", key.writer())
                        .fetch()
                        .rowsUpdated())
                .then();
    }

    /**
     * The dimension deltas summed per link, calendar month, dimension and label ({@code day} is the month's first
     * day), in the roll-up's key order so concurrent pods lock its rows in one order.
     */
    static List<VisitCountFlusher.DimCount> months(List<VisitCountFlusher.DimCount> dims) {
        record Key(String code, LocalDate month, Dimension dimension, String label) {}
        Map<Key, long[]> sums = new TreeMap<>(Comparator.comparing(Key::code)
                .thenComparing(Key::month)
                .thenComparingInt(k -> k.dimension().id)
                .thenComparing(Key::label));
        for (VisitCountFlusher.DimCount d : dims) {
            long[] sum = sums.computeIfAbsent(
                    new Key(d.code(), d.day().withDayOfMonth(1), d.dimension(), d.label()), k -> new long[2]);
            sum[0] += d.visits();
            sum[1] += d.botVisits();
        }
        List<VisitCountFlusher.DimCount> months = new ArrayList<>(sums.size());
        sums.forEach((k, v) ->
                months.add(new VisitCountFlusher.DimCount(k.code(), k.month(), k.dimension(), k.label(), v[0], v[1])));
        return months;
    }

    /** The values of dimension rows, in the column order of both dimension tables. */
    private static List<Object[]> dimValues(List<VisitCountFlusher.DimCount> rows) {
        return rows.stream()
                .map(d -> new Object[] {d.code(), d.day(), d.dimension().id, d.label(), d.visits(), d.botVisits()})
                .toList();
    }
}
