package dev.shortgate.visit;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes count flushes and sketches to the aggregate tables. A flush is one transaction: first its id goes into
 * {@code visit_flush} with {@code INSERT IGNORE}; if the id was already there (an earlier attempt committed, and
 * only its acknowledgement was lost), nothing else is written. Otherwise the deltas are added with
 * {@code INSERT … ON DUPLICATE KEY UPDATE visits = visits + VALUES(visits)}, rows in key order so concurrent pods
 * take row locks in the same order.
 */
final class VisitCountWriter implements VisitCountFlusher.CountWriter {

    static final int ROWS_PER_STATEMENT = 1000;
    static final int SKETCHES_PER_STATEMENT = 100;

    private static final String ADD = " ON DUPLICATE KEY UPDATE visits = visits + VALUES(visits), "
            + "bot_visits = bot_visits + VALUES(bot_visits)";

    private final MultiRowSql sql;
    private final TransactionalOperator transactions;
    private final Clock clock;

    VisitCountWriter(MultiRowSql sql, TransactionalOperator transactions, Clock clock) {
        this.sql = sql;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Override
    public Mono<Void> write(VisitCountFlusher.Flush flush) {
        List<MultiRowSql.Sql> deltas = new ArrayList<>();
        chunks(flush.days(), ROWS_PER_STATEMENT, rows -> sql.multiRow(
                "INSERT INTO link_stats (code, stat_date, visits, bot_visits) VALUES ",
                rows.stream().map(d -> new Object[] {d.code(), d.day(), d.visits(), d.botVisits()}).toList(), ADD),
                deltas);
        chunks(flush.dims(), ROWS_PER_STATEMENT, rows -> sql.multiRow(
                "INSERT INTO visit_dim_stats (code, stat_date, dim, label, visits, bot_visits) VALUES ",
                rows.stream().map(d -> new Object[] {d.code(), d.day(), d.dimension().id, d.label(), d.visits(),
                        d.botVisits()}).toList(), ADD), deltas);
        MultiRowSql.Sql claim = sql.multiRow("INSERT IGNORE INTO visit_flush (writer, seq, flushed_at) VALUES ",
                List.<Object[]>of(new Object[] {flush.writer(), flush.seq(),
                        LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)}), "");
        MultiRowSql.Sql waits = sql.lockWaits();
        return Mono.defer(() -> (waits == null ? Mono.just(0L) : sql.execute(waits))
                        .then(sql.execute(claim))
                        .flatMap(claimed -> claimed == 0 ? Mono.<Void>empty()
                                : Flux.fromIterable(deltas).concatMap(sql::execute).then()))
                .as(transactions::transactional);
    }

    @Override
    public Mono<Void> writeSketches(List<UniqueVisitors.Row> rows) {
        List<MultiRowSql.Sql> statements = new ArrayList<>();
        chunks(rows, SKETCHES_PER_STATEMENT, chunk -> sql.multiRow(
                "INSERT INTO visit_sketch (code, stat_date, writer, visitors, human_visitors) VALUES ",
                chunk.stream().map(r -> new Object[] {r.code(), java.time.LocalDate.ofEpochDay(r.epochDay()),
                        r.writer(), r.visitors(), r.humanVisitors()}).toList(),
                " ON DUPLICATE KEY UPDATE visitors = VALUES(visitors), human_visitors = VALUES(human_visitors)"),
                statements);
        return Mono.defer(() -> sql.executeAll(statements)).as(transactions::transactional);
    }

    private static <T> void chunks(List<T> items, int size, Function<List<T>, MultiRowSql.Sql> statement,
                                   List<MultiRowSql.Sql> into) {
        for (int from = 0; from < items.size(); from += size) {
            into.add(statement.apply(items.subList(from, Math.min(items.size(), from + size))));
        }
    }
}
