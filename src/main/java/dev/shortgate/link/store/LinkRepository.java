package dev.shortgate.link.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import dev.shortgate.codegen.TakenCodes;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.system.database.LinkTables;
import io.r2dbc.spi.Readable;
import org.springframework.modulith.NamedInterface;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads of the link tables, through R2DBC ({@link LinkWrites} writes them): {@code link}, or {@code link_00 …
 * link_61} when links are split by their code's first character ({@link LinkTables};
 * docs/adr/0014-link-table-split.md). Deleted links stay as tombstones.
 *
 * <p>Split, a link is read from its own table and from {@code link} (rows not moved yet) in one statement. Reads
 * that do not know the code go to the view {@code link_all}, or to every table with its own limit.
 */
@Repository
@NamedInterface("store")
public class LinkRepository implements TakenCodes {

    private final DatabaseClient db;
    private final LinkTables tables;

    LinkRepository(DatabaseClient db, LinkTables tables) {
        this.db = db;
        this.tables = tables;
    }

    /** The link with this code (exact, case-sensitive) and its rules, tombstones included, or empty. */
    public Mono<Link> findByCode(String code) {
        return readOne(code, LinkRows.COLUMNS + ", " + LinkRows.RULES_COLUMN, LinkRows::toLinkWithRules)
                .next();
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
                .bind("since", LinkRows.toDb(since))
                .map(row -> row.get("code", String.class))
                .all();
    }

    /** A link as stored, with the version a conditional {@link LinkWrites#update} must name. */
    public record Versioned(Link link, long version) {}

    /** The link with this code, its rules and its current version, tombstones included, or empty. */
    public Mono<Versioned> findVersioned(String code) {
        return readOne(
                        code,
                        LinkRows.COLUMNS + ", version, " + LinkRows.RULES_COLUMN,
                        row -> new Versioned(LinkRows.toLinkWithRules(row), ((Number) row.get("version")).longValue()))
                .next();
    }

    /** Live generated links of any of these URLs, in one query; a batch's find-if-exists picks among them. */
    public Flux<Link> findGenerated(Collection<String> urls) {
        if (urls.isEmpty()) {
            return Flux.empty();
        }
        List<byte[]> hashes = urls.stream().map(LinkRows::hash).toList();
        return db.sql("SELECT " + LinkRows.COLUMNS + " FROM " + tables.all() + " WHERE long_url_hash IN (:hashes) "
                        + "AND alias = FALSE AND deleted_at IS NULL")
                .bind("hashes", hashes)
                .map(LinkRows::toLink)
                .all();
    }

    /**
     * The links holding any of these codes with their rules, tombstones included, by code, in one query (the caches'
     * repair writes what this reads).
     */
    public Mono<java.util.Map<String, Link>> findByCodes(Collection<String> codes) {
        if (codes.isEmpty()) {
            return Mono.just(java.util.Map.of());
        }
        return db.sql("SELECT " + LinkRows.COLUMNS + ", (SELECT r.rules_json FROM link_rules r WHERE r.code = l.code) "
                        + "AS rules_json FROM " + tables.all() + " l WHERE code IN (" + LinkRows.codeLiterals(codes)
                        + ")")
                .map(LinkRows::toLinkWithRules)
                .all()
                .collectMap(Link::code);
    }

    /** Live generated links of this URL; find-if-exists picks among them. */
    public Flux<Link> findGenerated(String url) {
        return db.sql("SELECT " + LinkRows.COLUMNS + " FROM " + tables.all()
                        + " WHERE long_url_hash = :hash AND alias = FALSE " + "AND deleted_at IS NULL")
                .bind("hash", LinkRows.hash(url))
                .map(LinkRows::toLink)
                .all();
    }

    /**
     * The live generated link that was created for exactly these wanted settings ({@link #createKey}) and not
     * changed since, or empty.
     */
    public Mono<Link> findByCreateKey(Link wanted, int length) {
        byte[] key = LinkRows.createKey(wanted, length);
        if (key == null) {
            return Mono.empty();
        }
        // The URL hash names the shard (through its lookup vindex on Vitess); the create key holds the URL, so every
        // row with this key has this hash.
        return db.sql("SELECT " + LinkRows.COLUMNS + " FROM " + tables.all() + " WHERE long_url_hash = :hash "
                        + "AND create_key = :key")
                .bind("hash", LinkRows.hash(wanted.url()))
                .bind("key", key)
                .map(LinkRows::toLink)
                .one();
    }

    @Override
    public Mono<Set<String>> taken(Collection<String> codes) {
        if (codes.isEmpty()) {
            return Mono.just(Set.of());
        }
        return db.sql("SELECT code FROM " + tables.all() + " WHERE code IN (" + LinkRows.codeLiterals(codes) + ")")
                .map(row -> row.get("code", String.class))
                .all()
                .collect(java.util.stream.Collectors.toSet());
    }

    /**
     * Live links, newest first, after the cursor position; optionally only those one API key created.
     *
     * @param owner      the creating key's id, or {@code null} for all links
     * @param afterTime  the cursor's creation time, or {@code null} for the first page
     * @param afterCode  the cursor's code (ties on creation time are ordered by code)
     */
    public Flux<Link> page(Long owner, Instant afterTime, String afterCode, int limit) {
        return page(owner, null, afterTime, afterCode, limit);
    }

    /** As {@link #page(Long, Instant, String, int)}, of one domain's links only ({@code null}: every domain's). */
    public Flux<Link> page(Long owner, Integer domainId, Instant afterTime, String afterCode, int limit) {
        String order = "ORDER BY created_at DESC, code DESC LIMIT " + limit;
        // The domain is in the key (DomainCodes); the id is an int, so the literal cannot inject anything.
        String domain = domainId == null
                ? ""
                : domainId == Domains.DEFAULT_ID
                        ? " AND code NOT LIKE '%" + DomainCodes.SEPARATOR + "%'"
                        : " AND code LIKE '" + DomainCodes.prefix(domainId) + "%'";
        String sql = tables.eachTable(
                table -> "SELECT " + LinkRows.COLUMNS + " FROM " + table + " WHERE deleted_at IS NULL"
                        + (owner == null ? "" : " AND api_key_id = :owner")
                        + domain
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
            spec = spec.bind("afterTime", LinkRows.toDb(afterTime)).bind("afterCode", afterCode);
        }
        return spec.map(LinkRows::toLink).all();
    }
}
