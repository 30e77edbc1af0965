package dev.shortgate.visit.counts;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.TimeoutException;

import dev.shortgate.system.problem.Problem;
import org.springframework.modulith.NamedInterface;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Deletes every visit of one link: its raw rows ({@code visit}), its counts ({@code link_stats}), its dimension
 * counts ({@code visit_dim_stats}, {@code visit_dim_month}) and its unique-visitor sketches ({@code visit_sketch}),
 * so its totals, stats and lists all start again from zero.
 *
 * <p>What a deletion covers, given that visits are counted in memory and written later:
 * <ul>
 *   <li>On this pod, exactly every visit counted before it: the link's counts and sketches held in memory are
 *       forgotten first, then a count flush in progress (which may hold the link's visits already drained) is
 *       waited for, and only then are the rows deleted. Visits counted after that are after the deletion.
 *   <li>On other pods, counts not yet written when the deletion commits (at most one
 *       {@code counts-flush-interval}, 1 s by default) and raw rows still in their buffer (at most about one
 *       {@code flush-interval}) are written after it and count as visits after the deletion: they are visits made
 *       in the second before it, not deleted ones coming back.
 *   <li>Unique-visitor sketches are written whole, so another pod's sketch of today, started before the deletion,
 *       would bring the deleted visitors back the next time it is written. The deletion therefore records when it
 *       happened ({@code visit_reset}); every pod looks there once per {@code sketch-flush-interval}, drops its
 *       sketches of the link started before the deletion and deletes the rows they wrote. Until then (at most one
 *       {@code sketch-flush-interval}) unique-visitor figures of the link may still count a deleted visitor.
 * </ul>
 */
@NamedInterface("deletion")
public final class VisitDeletion {

    /** Raw rows deleted per statement, so no statement holds many locks. */
    static final int DELETE_BATCH = 5000;

    private static final String[] AGGREGATES = {"link_stats", "visit_dim_stats", "visit_dim_month", "visit_sketch"};

    private final DatabaseClient db;
    private final TransactionalOperator transactions;
    private final VisitTally tally;
    private final UniqueVisitors sketches;
    private final VisitCountFlusher flusher;
    private final Clock clock;
    private final Duration flushWait;

    public VisitDeletion(
            DatabaseClient db,
            TransactionalOperator transactions,
            VisitTally tally,
            UniqueVisitors sketches,
            VisitCountFlusher flusher,
            Clock clock,
            Duration flushWait) {
        this.db = db;
        this.transactions = transactions;
        this.tally = tally;
        this.sketches = sketches;
        this.flusher = flusher;
        this.clock = clock;
        this.flushWait = flushWait;
    }

    /**
     * Deletes every visit of {@code code} and answers how many visits it had (bots included), from its counts,
     * which never drop a visit (raw rows may have been shed or expired). The caller checks that the link exists
     * and that it may do this.
     */
    public Mono<Long> deleteAll(String code) {
        return Mono.defer(() -> {
            long held = tally.forget(code);
            sketches.forget(code, Long.MAX_VALUE);
            Instant at = clock.instant();
            return flusher.idle()
                    .timeout(flushWait)
                    .onErrorMap(
                            TimeoutException.class,
                            e -> Problem.SERVICE_UNAVAILABLE.toException(
                                    "Visits are being written; try deleting them again shortly."))
                    .then(deleteRaw(code))
                    .then(deleteCounts(code, at))
                    .map(counted -> counted + held);
        });
    }

    private Mono<Long> deleteRaw(String code) {
        Mono<Long> batch = Mono.defer(() -> db.sql("DELETE FROM visit WHERE code = :code LIMIT " + DELETE_BATCH)
                .bind("code", code)
                .fetch()
                .rowsUpdated());
        return batch.expand(n -> n >= DELETE_BATCH ? batch : Mono.empty()).reduce(0L, Long::sum);
    }

    /** The link's counts and sketches, and the record of the deletion, in one transaction; answers its visits. */
    private Mono<Long> deleteCounts(String code, Instant at) {
        Mono<Long> counted = db.sql("SELECT COALESCE(SUM(visits), 0) AS n FROM link_stats WHERE code = :code")
                .bind("code", code)
                .map(row -> ((Number) row.get("n")).longValue())
                .one();
        Mono<Void> deletes = Flux.fromArray(AGGREGATES)
                .concatMap(table -> db.sql("DELETE FROM " + table + " WHERE code = :code")
                        .bind("code", code)
                        .fetch()
                        .rowsUpdated())
                .then(db.sql("INSERT INTO visit_reset (code, reset_at) VALUES (:code, :at) "
                                + "ON DUPLICATE KEY UPDATE reset_at = VALUES(reset_at)")
                        .bind("code", code)
                        .bind("at", LocalDateTime.ofInstant(at, ZoneOffset.UTC))
                        .fetch()
                        .rowsUpdated())
                .then();
        return counted.flatMap(n -> deletes.thenReturn(n)).as(transactions::transactional);
    }
}
