package dev.shortgate.codegen.pool;

import java.time.Duration;
import java.util.Collection;

import dev.shortgate.codegen.Base62;
import dev.shortgate.system.database.ConflictRetry;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The pool in the database, for deployments without Redis: table {@code code_pool}. A take reads a few codes of the
 * length (from a random point, so concurrent takers rarely want the same one) and deletes one: the delete that
 * removes the row is the one that took it, so no two creates take the same code, on any pod. On Galera two nodes may
 * both delete the row locally; the one certified second fails at COMMIT (error 1213), runs its delete again through
 * {@link ConflictRetry}, deletes nothing and goes on to another code.
 */
public final class DatabaseCodePool implements CodePool {

    private static final int TRIES = 4;

    private final DatabaseClient db;
    private final Duration timeout;
    private final Scheduler timer;
    private final ConflictRetry conflicts;

    public DatabaseCodePool(DatabaseClient db, Duration timeout, Scheduler timer, ConflictRetry conflicts) {
        this.db = db;
        this.conflicts = conflicts;
        this.timeout = timeout;
        this.timer = timer;
    }

    @Override
    public Mono<String> take(int length) {
        return Flux.range(0, TRIES)
                .concatMap(
                        attempt -> db.sql("SELECT code FROM code_pool WHERE code_length = :length AND code >= :from "
                                        + "ORDER BY code LIMIT 1")
                                .bind("length", length)
                                .bind("from", RandomCodes.next(length))
                                .map(row -> row.get("code", String.class))
                                .one()
                                .switchIfEmpty(
                                        db.sql("SELECT code FROM code_pool WHERE code_length = :length ORDER BY code "
                                                        + "LIMIT 1")
                                                .bind("length", length)
                                                .map(row -> row.get("code", String.class))
                                                .one())
                                .flatMap(code -> conflicts
                                        .transaction(
                                                "pool_take",
                                                db.sql("DELETE FROM code_pool WHERE code = :code")
                                                        .bind("code", code)
                                                        .fetch()
                                                        .rowsUpdated())
                                        .filter(rows -> rows > 0)
                                        .map(rows -> code)),
                        1)
                .next()
                .timeout(timeout, timer);
    }

    @Override
    public Mono<Long> size(int length) {
        return db.sql("SELECT COUNT(*) AS n FROM code_pool WHERE code_length = :length")
                .bind("length", length)
                .map(row -> ((Number) row.get("n")).longValue())
                .one()
                .timeout(timeout.multipliedBy(10), timer);
    }

    @Override
    public Mono<Void> add(int length, Collection<String> codes) {
        if (codes.isEmpty()) {
            return Mono.empty();
        }
        StringBuilder sql = new StringBuilder("INSERT INTO code_pool (code, code_length) VALUES ");
        int i = 0;
        for (String code : codes) {
            if (!code.chars().allMatch(c -> Base62.ALPHABET.indexOf(c) >= 0) || code.length() != length) {
                throw new IllegalArgumentException("not a code of length " + length + ": " + code);
            }
            sql.append(i++ == 0 ? "" : ", ")
                    .append("('")
                    .append(code)
                    .append("', ")
                    .append(length)
                    .append(')');
        }
        return conflicts
                .transaction("pool_refill", db.sql(sql.toString()).fetch().rowsUpdated())
                .onErrorResume(DuplicateKeyException.class, e -> Mono.empty()) // a racing filler added one already
                .timeout(timeout.multipliedBy(50), timer)
                .then();
    }
}
