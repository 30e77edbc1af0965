package dev.shortgate.link.store;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRules;
import dev.shortgate.system.database.ConflictRetry;
import dev.shortgate.system.database.LinkTables;
import dev.shortgate.system.database.MultiRow;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes to the link tables ({@link LinkRepository} reads them): inserts, conditional updates and tombstones. The
 * primary key on {@code code} decides who owns a code: inserts are plain INSERTs, and a duplicate key is reported,
 * never ignored. Split ({@link LinkTables}; docs/adr/0014-link-table-split.md), a new link goes to its own table in a
 * transaction that also claims its create key in {@code link_create_key} (the create key's uniqueness across the 62
 * tables) and fails when {@code link} still holds the code.
 */
@Repository
public class LinkWrites {

    /** Single creates that run at once when a batch is written in the split layout, one transaction each. */
    static final int SPLIT_INSERTS_AT_ONCE = 16;

    private final DatabaseClient db;
    private final LinkTables tables;
    private final TransactionalOperator transactions;
    private final ConflictRetry conflicts;
    private final MultiRow multiRow;
    private final LinkRepository links;
    private final java.time.Clock clock;

    LinkWrites(
            DatabaseClient db,
            LinkTables tables,
            ReactiveTransactionManager transactionManager,
            ConflictRetry conflicts,
            MultiRow multiRow,
            LinkRepository links,
            java.time.Clock clock) {
        this.db = db;
        this.links = links;
        this.clock = clock;
        this.multiRow = multiRow;
        this.tables = tables;
        this.conflicts = conflicts;
        this.transactions = TransactionalOperator.create(transactionManager);
    }

    /**
     * Inserts many links with one multi-row statement, skipping every row whose code or create key is taken
     * ({@code INSERT IGNORE}), and emits how many went in; the caller reads back which rows hold the codes
     * ({@link LinkRepository#findByCodes}). Split, each link is inserted as {@link #insert} does, a few at once: a create key is
     * unique across the tables only through its claim, made in the transaction of its row. A statement (split: a
     * link's transaction) that lost a write conflict ({@link ConflictRetry}) is run again on its own.
     */
    public Mono<Long> insertAll(List<Link> links) {
        if (links.isEmpty()) {
            return Mono.just(0L);
        }
        if (tables.split()) {
            return Flux.fromIterable(links)
                    .flatMap(link -> conflicts.transaction("create_group", insert(link)), SPLIT_INSERTS_AT_ONCE)
                    .filter(inserted -> inserted)
                    .count();
        }
        return conflicts.transaction("create_group", insertRows(links));
    }

    /**
     * Inserts links an import brings in, as {@link #insertAll} does, each link's redirect rules committed with its
     * row: a link is never stored without the rules it came with, so a batch that failed on the way and is written
     * again finds either nothing of a link (and writes it whole) or the link with its rules. Unsplit, the multi-row
     * insert, the read-back of the codes it did not take and the rules of the rows it wrote are one transaction
     * (run again whole when it lost a write conflict); split, each link's own transaction ({@link #insert}) holds its
     * rules. Emits who holds each code afterwards: the given link (with its rules) for a row this wrote, otherwise
     * the holder read back.
     */
    public Mono<java.util.Map<String, Link>> insertAllWithRules(List<Link> batch) {
        if (batch.isEmpty()) {
            return Mono.just(java.util.Map.of());
        }
        if (tables.split()) {
            return Flux.fromIterable(batch)
                    .flatMap(
                            link -> conflicts
                                    .transaction("create_group", insert(link))
                                    .map(inserted -> java.util.Map.entry(link, inserted)),
                            SPLIT_INSERTS_AT_ONCE)
                    .collectList()
                    .flatMap(results -> {
                        java.util.Map<String, Link> held = new java.util.HashMap<>();
                        List<String> taken = new java.util.ArrayList<>();
                        for (var result : results) {
                            if (result.getValue()) {
                                held.put(result.getKey().code(), result.getKey());
                            } else {
                                taken.add(result.getKey().code());
                            }
                        }
                        return links.findByCodes(taken).map(found -> {
                            held.putAll(found);
                            return held;
                        });
                    });
        }
        Instant now = clock.instant();
        Mono<java.util.Map<String, Link>> write = Mono.defer(() -> insertRows(batch)
                .flatMap(inserted -> inserted == batch.size()
                        // every row went in: each code is held by its own row, with nothing to read back
                        ? Mono.just(ours(batch, java.util.Map.of(), true))
                        : links.findByCodes(batch.stream().map(Link::code).toList())
                                .map(found -> ours(batch, found, false)))
                .flatMap(held -> insertRules(
                                batch.stream()
                                        .filter(link -> held.get(link.code()) == link)
                                        .toList(),
                                now)
                        .thenReturn(held)));
        return conflicts.transaction("create_group", transactions.transactional(write));
    }

    /**
     * Who holds each code after a multi-row insert: the batch's own link where the row read back is the one it
     * wrote (every field as given, no rules yet: rules are written only with a row's insert), otherwise the holder.
     */
    private static java.util.Map<String, Link> ours(
            List<Link> batch, java.util.Map<String, Link> found, boolean allInserted) {
        java.util.Map<String, Link> held = new java.util.HashMap<>(found);
        for (Link link : batch) {
            Link holder = found.get(link.code());
            if (allInserted || (holder != null && holder.rules() == null && holder.equals(link.withRules(null)))) {
                held.put(link.code(), link);
            }
        }
        return held;
    }

    /** The unsplit multi-row {@code INSERT IGNORE}; emits how many rows went in. */
    private Mono<Long> insertRows(List<Link> links) {
        List<Object[]> rows = new java.util.ArrayList<>(links.size());
        for (Link link : links) {
            rows.add(new Object[] {
                link.code(),
                link.url(),
                LinkRows.hash(link.url()),
                link.redirectStatus(),
                link.alias(),
                LinkRows.toDb(link.createdAt()),
                LinkRows.orNull(LinkRows.toDb(link.expiresAt()), LocalDateTime.class),
                LinkRows.orNull(link.maxVisits(), Long.class),
                link.disabled(),
                link.forwardQuery(),
                LinkRows.orNull(link.apiKeyId(), Long.class),
                LinkRows.orNull(
                        LinkRows.createKey(link, DomainCodes.code(link.code()).length()), byte[].class)
            });
        }
        // Bound by position in one call (MultiRow): named, expanding the 12,000 parameters of a 1000-link batch took
        // a fifth of an import's CPU.
        var spec = multiRow.statement(
                "INSERT IGNORE INTO link (code, long_url, long_url_hash, redirect_status, alias, created_at, expires_at, "
                        + "max_visits, disabled, forward_query, api_key_id, create_key) VALUES ",
                rows,
                "");
        return spec.fetch().rowsUpdated();
    }

    /**
     * Inserts the link, with its rules in the same transaction when it has some (an import's); emits {@code false}
     * when the code is already taken (tombstones included), or when a live
     * generated link was created for exactly the same settings a moment earlier (the {@code create_key} unique key:
     * concurrent creates of one URL under a strategy whose candidates differ per create still make one row).
     */
    public Mono<Boolean> insert(Link link) {
        if (!tables.split()) {
            Mono<Long> row = insertRow(LinkTables.LEGACY, link);
            return (link.rules() == null ? row : transactions.transactional(withRules(row, link)))
                    .map(rows -> rows > 0)
                    .onErrorResume(DuplicateKeyException.class, e -> Mono.just(false));
        }
        // Split: the create key's claim and the row commit together, and neither when link still holds the code
        byte[] key = LinkRows.createKey(link, DomainCodes.code(link.code()).length());
        Mono<Long> claimAndInsert = withRules(
                (key == null ? Mono.<Long>empty() : claimCreateKey(key, link.code()))
                        .then(insertRow(tables.table(link.code()), link))
                        .flatMap(rows -> legacyHolds(link.code())
                                .flatMap(held ->
                                        held ? Mono.<Long>error(new CodeStillInLegacyTable()) : Mono.just(rows))),
                link);
        return transactions
                .transactional(claimAndInsert)
                .map(rows -> rows > 0)
                .onErrorResume(
                        e -> e instanceof DuplicateKeyException || e instanceof CodeStillInLegacyTable,
                        e -> Mono.just(false));
    }

    /** The link's rules written after its row, when the row went in and it has rules (the caller's transaction). */
    private Mono<Long> withRules(Mono<Long> row, Link link) {
        return link.rules() == null
                ? row
                : row.flatMap(rows -> rows > 0
                        ? insertRules(link.code(), link.rules(), clock.instant())
                                .thenReturn(rows)
                        : Mono.just(rows));
    }

    /** A split-layout create found its code still in {@code link}: the transaction is rolled back. */
    private static final class CodeStillInLegacyTable extends RuntimeException {
        CodeStillInLegacyTable() {
            super("code still held in link", null, false, false);
        }
    }

    private Mono<Long> claimCreateKey(byte[] key, String code) {
        return db.sql("INSERT INTO link_create_key (create_key, code) VALUES (:key, :code)")
                .bind("key", key)
                .bind("code", code)
                .fetch()
                .rowsUpdated();
    }

    /** Whether {@code link} (the layout before the split) still holds this code. */
    private Mono<Boolean> legacyHolds(String code) {
        return db.sql("SELECT COUNT(*) AS n FROM " + LinkTables.LEGACY + " WHERE code = :code")
                .bind("code", code)
                .map(row -> ((Number) row.get("n")).longValue() > 0)
                .one();
    }

    private Mono<Long> insertRow(String table, Link link) {
        var spec = db.sql("INSERT INTO " + table + " (code, long_url, long_url_hash, redirect_status, alias, "
                        + "created_at, expires_at, max_visits, disabled, forward_query, api_key_id, create_key) VALUES "
                        + "(:code, :url, :hash, :status, :alias, :createdAt, :expiresAt, :maxVisits, :disabled, "
                        + ":forwardQuery, :apiKeyId, :createKey)")
                .bind("code", link.code())
                .bind("url", link.url())
                .bind("hash", LinkRows.hash(link.url()))
                .bind("status", link.redirectStatus())
                .bind("alias", link.alias())
                .bind("createdAt", LinkRows.toDb(link.createdAt()))
                .bind("disabled", link.disabled())
                .bind("forwardQuery", link.forwardQuery());
        spec = LinkRows.bindNullable(spec, "expiresAt", LinkRows.toDb(link.expiresAt()), LocalDateTime.class);
        spec = LinkRows.bindNullable(spec, "maxVisits", link.maxVisits(), Long.class);
        spec = LinkRows.bindNullable(spec, "apiKeyId", link.apiKeyId(), Long.class);
        spec = LinkRows.bindNullable(
                spec,
                "createKey",
                LinkRows.createKey(link, DomainCodes.code(link.code()).length()),
                byte[].class);
        return spec.fetch().rowsUpdated();
    }

    /**
     * Writes a live link's editable fields if it is still at {@code version}; emits {@code false} when it has
     * changed since (or is gone), so the caller can re-read it and apply its change again.
     */
    public Mono<Boolean> update(Link link, long version, Instant now) {
        return inEitherTable(link.code(), table -> updateIn(table, link, version, now));
    }

    /**
     * Runs a change of one link: on {@code link}, or split on {@code link} first and then on the link's own table
     * (a row being moved is locked by the move, so the change lands before it, in the copy, or after it, in the
     * link's table), dropping the create key's claim with it in one transaction. Emits whether a row changed.
     */
    private Mono<Boolean> inEitherTable(String code, java.util.function.Function<String, Mono<Long>> change) {
        if (!tables.split()) {
            return change.apply(LinkTables.LEGACY).map(rows -> rows > 0);
        }
        Mono<Boolean> changed = change.apply(LinkTables.LEGACY)
                .flatMap(rows -> rows > 0 ? Mono.just(rows) : change.apply(tables.table(code)))
                .flatMap(rows -> rows > 0
                        ? db.sql("DELETE FROM link_create_key WHERE code = :code")
                                .bind("code", code)
                                .fetch()
                                .rowsUpdated()
                                .thenReturn(true)
                        : Mono.just(false));
        return transactions.transactional(changed);
    }

    private Mono<Long> updateIn(String table, Link link, long version, Instant now) {
        var spec = db.sql("UPDATE " + table + " SET long_url = :url, long_url_hash = :hash, redirect_status = :status, "
                        + "expires_at = :expiresAt, max_visits = :maxVisits, disabled = :disabled, "
                        + "forward_query = :forwardQuery, updated_at = :now, version = version + 1, create_key = NULL "
                        + "WHERE code = :code AND deleted_at IS NULL AND version = :version")
                .bind("code", link.code())
                .bind("version", version)
                .bind("url", link.url())
                .bind("hash", LinkRows.hash(link.url()))
                .bind("status", link.redirectStatus())
                .bind("disabled", link.disabled())
                .bind("forwardQuery", link.forwardQuery())
                .bind("now", LinkRows.toDb(now));
        spec = LinkRows.bindNullable(spec, "expiresAt", LinkRows.toDb(link.expiresAt()), LocalDateTime.class);
        spec = LinkRows.bindNullable(spec, "maxVisits", link.maxVisits(), Long.class);
        return spec.fetch().rowsUpdated();
    }

    /**
     * Replaces a live link's rules if it is still at {@code version} ({@code null}: removes them), bumping the
     * version in the same transaction so a concurrent change of the link re-reads it; emits {@code false} when it
     * has changed since (or is gone).
     */
    public Mono<Boolean> setRules(String code, LinkRules rules, long version, Instant now) {
        Mono<Boolean> write = inEitherTable(code, table -> db.sql("UPDATE " + table + " SET updated_at = :now, "
                                + "version = version + 1, create_key = NULL WHERE code = :code AND deleted_at IS NULL "
                                + "AND version = :version")
                        .bind("code", code)
                        .bind("version", version)
                        .bind("now", LinkRows.toDb(now))
                        .fetch()
                        .rowsUpdated())
                .flatMap(changed -> changed ? replaceRules(code, rules, now).thenReturn(true) : Mono.just(false));
        return transactions.transactional(write);
    }

    private Mono<Void> replaceRules(String code, LinkRules rules, Instant now) {
        Mono<Long> delete = db.sql("DELETE FROM link_rules WHERE code = :code")
                .bind("code", code)
                .fetch()
                .rowsUpdated();
        if (rules == null || rules.isEmpty()) {
            return delete.then();
        }
        return delete.then(insertRules(code, rules, now));
    }

    private Mono<Void> insertRules(String code, LinkRules rules, Instant now) {
        return db.sql("INSERT INTO link_rules (code, rules_json, updated_at) VALUES (:code, :rules, :now)")
                .bind("code", code)
                .bind("rules", LinkRows.writeRules(rules))
                .bind("now", LinkRows.toDb(now))
                .fetch()
                .rowsUpdated()
                .then();
    }

    /**
     * Stores the rules of links just inserted (an import's new links, which have none yet): the native API's
     * statement, one a link that has rules.
     */
    public Mono<Void> insertRules(List<Link> links, Instant now) {
        return Flux.fromIterable(links)
                .filter(link -> link.rules() != null)
                .concatMap(link -> insertRules(link.code(), link.rules(), now))
                .then();
    }

    /** Turns a live link into a tombstone; emits {@code false} when there was none. */
    public Mono<Boolean> markDeleted(String code, Instant now) {
        return inEitherTable(code, table -> db.sql("UPDATE " + table + " SET deleted_at = :now, version = version + 1, "
                        + "create_key = NULL WHERE code = :code AND deleted_at IS NULL")
                .bind("code", code)
                .bind("now", LinkRows.toDb(now))
                .fetch()
                .rowsUpdated());
    }
}
