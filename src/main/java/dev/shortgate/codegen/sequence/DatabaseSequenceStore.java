package dev.shortgate.codegen.sequence;

import java.time.Duration;

import dev.shortgate.system.database.ConflictRetry;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;

/**
 * The {@code sequence} strategy's counters in the database: table {@code code_sequence}, one row per code length.
 * A block is reserved with a compare-and-set: read the counter, then move it on only if it still holds what was
 * read; a pod that lost the race to another reads again. It works the same on MySQL, MariaDB and H2, and the
 * counter is as durable as the links themselves: a restart, or a Redis loss, never hands a value out twice. On Galera
 * a pod on another node that moved the counter at the same moment makes the write fail at COMMIT (error 1213) instead
 * of matching no row: a lost race too, read again through {@link ConflictRetry}.
 */
public final class DatabaseSequenceStore implements SequenceBlocks.Store {

    private static final int ATTEMPTS = 100;

    private final DatabaseClient db;
    private final Duration timeout;
    private final Scheduler timer;
    private final ConflictRetry conflicts;

    public DatabaseSequenceStore(DatabaseClient db, Duration timeout, Scheduler timer, ConflictRetry conflicts) {
        this.db = db;
        this.conflicts = conflicts;
        this.timeout = timeout;
        this.timer = timer;
    }

    @Override
    public Mono<Long> reserve(int length, long size) {
        return conflicts
                .transaction("sequence_block", Mono.defer(() -> db.sql(
                                "SELECT next_value FROM code_sequence WHERE code_length = :length")
                        .bind("length", length)
                        .map(row -> ((Number) row.get("next_value")).longValue())
                        .one()
                        .switchIfEmpty(Mono.error(
                                () -> new IllegalStateException("code_sequence has no row for length " + length)))
                        .flatMap(start -> db.sql("UPDATE code_sequence SET next_value = :end "
                                        + "WHERE code_length = :length AND next_value = :start")
                                .bind("end", start + size)
                                .bind("length", length)
                                .bind("start", start)
                                .fetch()
                                .rowsUpdated()
                                .flatMap(rows -> rows > 0 ? Mono.just(start) : Mono.<Long>error(LostRace::new)))))
                .retryWhen(Retry.max(ATTEMPTS).filter(LostRace.class::isInstance))
                .timeout(timeout, timer);
    }

    /** Another pod moved the counter between this pod's read and its write. */
    private static final class LostRace extends RuntimeException {
        LostRace() {
            super("counter moved", null, false, false);
        }
    }
}
