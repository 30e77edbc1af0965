package dev.shortgate.link.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.system.database.LinkTables;
import dev.shortgate.system.database.StorageProperties;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Moves links from {@code link} into {@code link_00 … link_61} while the service keeps serving
 * (docs/adr/0014-link-table-split.md). Each batch is one transaction: copy the batch's rows to their tables, bring
 * their create keys' claims to {@code link_create_key}, delete them from {@code link}. Readers see a row in exactly
 * one place at any instant (a point read looks at both in one statement); a create of a code still in {@code link}
 * fails ({@link LinkRepository#insert}); a change runs on {@code link} first, waiting for a batch that holds the row.
 * A stopped move is resumed by running it again.
 */
@Component
class LinkMove {

    private static final String COLUMNS = "code, long_url, long_url_hash, alias, redirect_status, created_at, "
            + "expires_at, max_visits, disabled, api_key_id, forward_query, updated_at, deleted_at, version, create_key";

    private final DatabaseClient db;
    private final LinkTables tables;
    private final TransactionalOperator transactions;
    private final int batchSize;

    LinkMove(
            DatabaseClient db,
            LinkTables tables,
            ReactiveTransactionManager transactionManager,
            StorageProperties properties) {
        this.db = db;
        this.tables = tables;
        this.transactions = TransactionalOperator.create(transactionManager);
        this.batchSize = properties.moveBatchSize();
    }

    /** Whether this pod runs the split layout (the move is refused otherwise: nothing would read the moved rows). */
    boolean enabled() {
        return tables.split();
    }

    /** How many rows {@code link} still holds. */
    Mono<Long> remaining() {
        return db.sql("SELECT COUNT(*) AS n FROM " + LinkTables.LEGACY)
                .map(row -> ((Number) row.get("n")).longValue())
                .one();
    }

    /** Moves every row of {@code link}, a batch per transaction; emits how many rows were moved. */
    Mono<Long> moveAll() {
        if (!enabled()) {
            return Mono.error(new IllegalStateException(
                    "set shortgate.storage.table-split=first-char on every pod before moving links"));
        }
        return Mono.defer(this::moveBatch)
                .repeat()
                .takeUntil(moved -> moved < batchSize)
                .reduce(0L, Long::sum);
    }

    /** Moves the first {@link StorageProperties#moveBatchSize} rows of {@code link} in code order. */
    Mono<Long> moveBatch() {
        return db.sql("SELECT code FROM " + LinkTables.LEGACY + " ORDER BY code LIMIT " + batchSize)
                .map(row -> row.get("code", String.class))
                .all()
                .collectList()
                .flatMap(codes -> codes.isEmpty() ? Mono.just(0L) : transactions.transactional(move(codes)));
    }

    private Mono<Long> move(List<String> codes) {
        Map<String, List<String>> byTable = new LinkedHashMap<>();
        codes.forEach(code -> byTable.computeIfAbsent(LinkTables.splitTable(code), table -> new ArrayList<>())
                .add(code));
        Flux<Long> copies = Flux.fromIterable(byTable.entrySet()).concatMap(entry -> db.sql("INSERT INTO "
                        + entry.getKey() + " (" + COLUMNS + ") SELECT " + COLUMNS + " FROM " + LinkTables.LEGACY
                        + " WHERE code IN (:codes)")
                .bind("codes", entry.getValue())
                .fetch()
                .rowsUpdated());
        // A claim already there is a split-layout row's with the same key: it was created after this row was changed
        // (find-if-exists would have found this row otherwise), so this row needs no claim of its own.
        Mono<Long> claims = db.sql("INSERT IGNORE INTO link_create_key (create_key, code) SELECT create_key, code FROM "
                        + LinkTables.LEGACY + " WHERE code IN (:codes) AND create_key IS NOT NULL")
                .bind("codes", codes)
                .fetch()
                .rowsUpdated();
        Mono<Long> delete = db.sql("DELETE FROM " + LinkTables.LEGACY + " WHERE code IN (:codes)")
                .bind("codes", codes)
                .fetch()
                .rowsUpdated();
        return copies.then(claims).then(delete);
    }
}
