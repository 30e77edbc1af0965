package dev.shortgate.link;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import dev.shortgate.codegen.Base62;
import dev.shortgate.codegen.TakenCodes;
import dev.shortgate.system.LinkTables;
import io.r2dbc.spi.Readable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The link tables, through R2DBC: {@code link}, or {@code link_00 … link_61} when links are split by their code's
 * first character ({@link LinkTables}; docs/adr/0014-link-table-split.md). The primary key on {@code code} is what
 * decides who owns a code: inserts are plain INSERTs, and a duplicate key is reported, never ignored. Deleted links
 * stay as tombstones.
 *
 * <p>Split, a link is read from its own table and from {@code link} (rows not moved yet) in one statement; a new
 * link goes to its own table in a transaction that also claims its create key in {@code link_create_key} (the
 * create key's uniqueness across the 62 tables) and fails when {@code link} still holds the code. Reads that do not
 * know the code go to the view {@code link_all}, or to every table with its own limit.
 */
@Repository
public class LinkRepository implements TakenCodes {

    private static final String COLUMNS = "code, long_url, redirect_status, alias, created_at, expires_at, "
            + "max_visits, disabled, forward_query, api_key_id, deleted_at";

    /** Single creates that run at once when a batch is written in the split layout, one transaction each. */
    static final int SPLIT_INSERTS_AT_ONCE = 16;

    private final DatabaseClient db;
    private final LinkTables tables;
    private final TransactionalOperator transactions;

    LinkRepository(DatabaseClient db, LinkTables tables, ReactiveTransactionManager transactionManager) {
        this.db = db;
        this.tables = tables;
        this.transactions = TransactionalOperator.create(transactionManager);
    }

    /** The link with this code (exact, case-sensitive), tombstones included, or empty. */
    public Mono<Link> findByCode(String code) {
        return readOne(code, COLUMNS, LinkRepository::toLink).next();
    }

    /**
     * The row of this code: from {@code link}, or split from {@code link} and then from the code's own table, in one
     * statement. A move only takes rows from {@code link} to their own table, so reading in this order finds a row
     * that is being moved (twice at most) even where a statement does not read from one snapshot.
     */
    private <T> Flux<T> readOne(String code, String columns, java.util.function.Function<Readable, T> mapper) {
        String own = "SELECT " + columns + " FROM " + tables.table(code) + " WHERE code = :code";
        String sql = tables.split()
                ? "SELECT " + columns + " FROM " + LinkTables.LEGACY + " WHERE code = :code UNION ALL " + own
                : own;
        return db.sql(sql).bind("code", code).map(mapper).all();
    }

    /** Every code, tombstones included, read a page at a time in code order (for building a filter of codes). */
    public Flux<String> allCodes(int pageSize) {
        return codesAfter("", pageSize)
                .expand(page -> page.size() < pageSize ? Mono.empty() : codesAfter(page.get(page.size() - 1), pageSize))
                .concatMapIterable(page -> page);
    }

    private Mono<List<String>> codesAfter(String after, int pageSize) {
        return db.sql(tables.eachTable(
                        table -> "SELECT code FROM " + table + " WHERE code > :after ORDER BY code LIMIT " + pageSize,
                        "ORDER BY code LIMIT " + pageSize))
                .bind("after", after)
                .map(row -> row.get("code", String.class))
                .all()
                .collectList();
    }

    /** Codes of links created at or after this instant. */
    public Flux<String> codesCreatedSince(Instant since) {
        return db.sql("SELECT code FROM " + tables.all() + " WHERE created_at >= :since")
                .bind("since", toDb(since))
                .map(row -> row.get("code", String.class))
                .all();
    }

    /** A link as stored, with the version a conditional {@link #update} must name. */
    record Versioned(Link link, long version) {}

    /** The link with this code and its current version, tombstones included, or empty. */
    Mono<Versioned> findVersioned(String code) {
        return readOne(
                        code,
                        COLUMNS + ", version",
                        row -> new Versioned(toLink(row), ((Number) row.get("version")).longValue()))
                .next();
    }

    /** Live generated links of any of these URLs, in one query; a batch's find-if-exists picks among them. */
    Flux<Link> findGenerated(Collection<String> urls) {
        if (urls.isEmpty()) {
            return Flux.empty();
        }
        List<byte[]> hashes = urls.stream().map(LinkRepository::hash).toList();
        return db.sql("SELECT " + COLUMNS + " FROM " + tables.all() + " WHERE long_url_hash IN (:hashes) "
                        + "AND alias = FALSE AND deleted_at IS NULL")
                .bind("hashes", hashes)
                .map(LinkRepository::toLink)
                .all();
    }

    /** The links holding any of these generated codes, tombstones included, by code, in one query. */
    Mono<java.util.Map<String, Link>> findByCodes(Collection<String> codes) {
        if (codes.isEmpty()) {
            return Mono.just(java.util.Map.of());
        }
        return db.sql("SELECT " + COLUMNS + " FROM " + tables.all() + " WHERE code IN (" + codeLiterals(codes) + ")")
                .map(LinkRepository::toLink)
                .all()
                .collectMap(Link::code);
    }

    /**
     * Inserts many links with one multi-row statement, skipping every row whose code or create key is taken
     * ({@code INSERT IGNORE}), and emits how many went in; the caller reads back which rows hold the codes
     * ({@link #findByCodes}). Split, each link is inserted as {@link #insert} does, a few at once: a create key is
     * unique across the tables only through its claim, made in the transaction of its row.
     */
    Mono<Long> insertAll(List<Link> links) {
        if (links.isEmpty()) {
            return Mono.just(0L);
        }
        if (tables.split()) {
            return Flux.fromIterable(links)
                    .flatMap(this::insert, SPLIT_INSERTS_AT_ONCE)
                    .filter(inserted -> inserted)
                    .count();
        }
        StringBuilder sql = new StringBuilder("INSERT IGNORE INTO link (code, long_url, long_url_hash, "
                + "redirect_status, alias, created_at, expires_at, max_visits, disabled, forward_query, api_key_id, "
                + "create_key) VALUES ");
        for (int i = 0; i < links.size(); i++) {
            sql.append(i == 0 ? "" : ", ")
                    .append("(:code")
                    .append(i)
                    .append(", :url")
                    .append(i)
                    .append(", :hash")
                    .append(i)
                    .append(", :status")
                    .append(i)
                    .append(", :alias")
                    .append(i)
                    .append(", :createdAt")
                    .append(i)
                    .append(", :expiresAt")
                    .append(i)
                    .append(", :maxVisits")
                    .append(i)
                    .append(", :disabled")
                    .append(i)
                    .append(", :forwardQuery")
                    .append(i)
                    .append(", :apiKeyId")
                    .append(i)
                    .append(", :createKey")
                    .append(i)
                    .append(')');
        }
        // One map bound at once: binding 2,400 values one by one copies the spec's map each time (quadratic).
        java.util.Map<String, Object> values = new java.util.HashMap<>(links.size() * 16);
        for (int i = 0; i < links.size(); i++) {
            Link link = links.get(i);
            values.put("code" + i, link.code());
            values.put("url" + i, link.url());
            values.put("hash" + i, hash(link.url()));
            values.put("status" + i, link.redirectStatus());
            values.put("alias" + i, link.alias());
            values.put("createdAt" + i, toDb(link.createdAt()));
            values.put("disabled" + i, link.disabled());
            values.put("forwardQuery" + i, link.forwardQuery());
            values.put("expiresAt" + i, orNull(toDb(link.expiresAt()), LocalDateTime.class));
            values.put("maxVisits" + i, orNull(link.maxVisits(), Long.class));
            values.put("apiKeyId" + i, orNull(link.apiKeyId(), Long.class));
            values.put("createKey" + i, orNull(createKey(link, link.code().length()), byte[].class));
        }
        var spec = db.sql(sql.toString()).bindValues(values);
        return spec.fetch().rowsUpdated();
    }

    private static Object orNull(Object value, Class<?> type) {
        return org.springframework.r2dbc.core.Parameter.fromOrEmpty(value, type);
    }

    /** Generated codes as SQL string literals; they are checked to be base-62 only, so nothing can be injected. */
    private static String codeLiterals(Collection<String> codes) {
        StringBuilder sql = new StringBuilder();
        int i = 0;
        for (String code : codes) {
            if (code.isEmpty() || !code.chars().allMatch(c -> Base62.ALPHABET.indexOf(c) >= 0)) {
                throw new IllegalArgumentException("not a generated code: " + code);
            }
            sql.append(i++ == 0 ? "'" : ", '").append(code).append('\'');
        }
        return sql.toString();
    }

    /** Live generated links of this URL; find-if-exists picks among them. */
    Flux<Link> findGenerated(String url) {
        return db.sql("SELECT " + COLUMNS + " FROM " + tables.all() + " WHERE long_url_hash = :hash AND alias = FALSE "
                        + "AND deleted_at IS NULL")
                .bind("hash", hash(url))
                .map(LinkRepository::toLink)
                .all();
    }

    /**
     * The live generated link that was created for exactly these wanted settings ({@link #createKey}) and not
     * changed since, or empty.
     */
    Mono<Link> findByCreateKey(Link wanted, int length) {
        byte[] key = createKey(wanted, length);
        if (key == null) {
            return Mono.empty();
        }
        // The URL hash names the shard (through its lookup vindex on Vitess); the create key holds the URL, so every
        // row with this key has this hash.
        return db.sql("SELECT " + COLUMNS + " FROM " + tables.all() + " WHERE long_url_hash = :hash "
                        + "AND create_key = :key")
                .bind("hash", hash(wanted.url()))
                .bind("key", key)
                .map(LinkRepository::toLink)
                .one();
    }

    @Override
    public Mono<Set<String>> taken(Collection<String> codes) {
        if (codes.isEmpty()) {
            return Mono.just(Set.of());
        }
        return db.sql("SELECT code FROM " + tables.all() + " WHERE code IN (" + codeLiterals(codes) + ")")
                .map(row -> row.get("code", String.class))
                .all()
                .collect(java.util.stream.Collectors.toSet());
    }

    /**
     * Inserts the link; emits {@code false} when the code is already taken (tombstones included), or when a live
     * generated link was created for exactly the same settings a moment earlier (the {@code create_key} unique key:
     * concurrent creates of one URL under a strategy whose candidates differ per create still make one row).
     */
    Mono<Boolean> insert(Link link) {
        if (!tables.split()) {
            return insertRow(LinkTables.LEGACY, link)
                    .map(rows -> rows > 0)
                    .onErrorResume(DuplicateKeyException.class, e -> Mono.just(false));
        }
        // Split: the create key's claim and the row commit together, and neither when link still holds the code
        byte[] key = createKey(link, link.code().length());
        Mono<Long> claimAndInsert = (key == null ? Mono.<Long>empty() : claimCreateKey(key, link.code()))
                .then(insertRow(tables.table(link.code()), link))
                .flatMap(rows -> legacyHolds(link.code())
                        .flatMap(held -> held ? Mono.<Long>error(new CodeStillInLegacyTable()) : Mono.just(rows)));
        return transactions
                .transactional(claimAndInsert)
                .map(rows -> rows > 0)
                .onErrorResume(
                        e -> e instanceof DuplicateKeyException || e instanceof CodeStillInLegacyTable,
                        e -> Mono.just(false));
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
                .bind("hash", hash(link.url()))
                .bind("status", link.redirectStatus())
                .bind("alias", link.alias())
                .bind("createdAt", toDb(link.createdAt()))
                .bind("disabled", link.disabled())
                .bind("forwardQuery", link.forwardQuery());
        spec = bindNullable(spec, "expiresAt", toDb(link.expiresAt()), LocalDateTime.class);
        spec = bindNullable(spec, "maxVisits", link.maxVisits(), Long.class);
        spec = bindNullable(spec, "apiKeyId", link.apiKeyId(), Long.class);
        spec = bindNullable(spec, "createKey", createKey(link, link.code().length()), byte[].class);
        return spec.fetch().rowsUpdated();
    }

    /**
     * Writes a live link's editable fields if it is still at {@code version}; emits {@code false} when it has
     * changed since (or is gone), so the caller can re-read it and apply its change again.
     */
    Mono<Boolean> update(Link link, long version, Instant now) {
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
                .bind("hash", hash(link.url()))
                .bind("status", link.redirectStatus())
                .bind("disabled", link.disabled())
                .bind("forwardQuery", link.forwardQuery())
                .bind("now", toDb(now));
        spec = bindNullable(spec, "expiresAt", toDb(link.expiresAt()), LocalDateTime.class);
        spec = bindNullable(spec, "maxVisits", link.maxVisits(), Long.class);
        return spec.fetch().rowsUpdated();
    }

    /** Turns a live link into a tombstone; emits {@code false} when there was none. */
    Mono<Boolean> markDeleted(String code, Instant now) {
        return inEitherTable(code, table -> db.sql("UPDATE " + table + " SET deleted_at = :now, version = version + 1, "
                        + "create_key = NULL WHERE code = :code AND deleted_at IS NULL")
                .bind("code", code)
                .bind("now", toDb(now))
                .fetch()
                .rowsUpdated());
    }

    /**
     * Live links, newest first, after the cursor position; optionally only those one API key created.
     *
     * @param owner      the creating key's id, or {@code null} for all links
     * @param afterTime  the cursor's creation time, or {@code null} for the first page
     * @param afterCode  the cursor's code (ties on creation time are ordered by code)
     */
    Flux<Link> page(Long owner, Instant afterTime, String afterCode, int limit) {
        String order = "ORDER BY created_at DESC, code DESC LIMIT " + limit;
        String sql = tables.eachTable(
                table -> "SELECT " + COLUMNS + " FROM " + table + " WHERE deleted_at IS NULL"
                        + (owner == null ? "" : " AND api_key_id = :owner")
                        + (afterTime == null
                                ? ""
                                : " AND (created_at < :afterTime OR (created_at = :afterTime AND code < :afterCode))")
                        + " " + order,
                order);
        var spec = db.sql(sql);
        if (owner != null) {
            spec = spec.bind("owner", owner);
        }
        if (afterTime != null) {
            spec = spec.bind("afterTime", toDb(afterTime)).bind("afterCode", afterCode);
        }
        return spec.map(LinkRepository::toLink).all();
    }

    private static <T> DatabaseClient.GenericExecuteSpec bindNullable(
            DatabaseClient.GenericExecuteSpec spec, String name, T value, Class<T> type) {
        return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
    }

    /** A link from a row holding the link columns (under their own names). */
    public static Link toLink(Readable row) {
        Object maxVisits = row.get("max_visits");
        Object apiKeyId = row.get("api_key_id");
        return new Link(
                row.get("code", String.class),
                row.get("long_url", String.class),
                ((Number) row.get("redirect_status")).intValue(),
                bool(row.get("alias")),
                fromDb(row.get("created_at", LocalDateTime.class)),
                fromDb(row.get("expires_at", LocalDateTime.class)),
                maxVisits == null ? null : ((Number) maxVisits).longValue(),
                bool(row.get("disabled")),
                bool(row.get("forward_query")),
                apiKeyId == null ? null : ((Number) apiKeyId).longValue(),
                fromDb(row.get("deleted_at", LocalDateTime.class)));
    }

    /** BOOLEAN is a real boolean in H2 and TINYINT(1) in MySQL; drivers hand back either. */
    public static boolean bool(Object value) {
        return value instanceof Boolean b ? b : value instanceof Number n && n.intValue() != 0;
    }

    /** Times are stored as UTC wall-clock values, so no driver or server time zone can shift them. */
    public static LocalDateTime toDb(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    public static Instant fromDb(LocalDateTime value) {
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }

    /**
     * What identifies a create for find-if-exists: the URL, the code length and every setting find-if-exists
     * compares ({@link Link#satisfies}). Only live, enabled generated links carry it (aliases and disabled links do
     * not take part in find-if-exists); a change or a delete clears it.
     */
    static byte[] createKey(Link link, int length) {
        if (link.alias() || link.disabled()) {
            return null;
        }
        String key = length + "\0" + link.redirectStatus() + "\0" + link.forwardQuery() + "\0"
                + (link.expiresAt() == null ? "-" : link.expiresAt().toEpochMilli()) + "\0"
                + (link.maxVisits() == null ? "-" : link.maxVisits()) + "\0"
                + (link.apiKeyId() == null ? "-" : link.apiKeyId()) + "\0" + link.url();
        return hash(key);
    }

    static byte[] hash(String url) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(url.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
