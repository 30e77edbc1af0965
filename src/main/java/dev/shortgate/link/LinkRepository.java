package dev.shortgate.link;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import io.r2dbc.spi.Readable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The {@code link} table, through R2DBC. The primary key on {@code code} is what decides who owns a code:
 * inserts are plain INSERTs, and a duplicate key is reported, never ignored. Deleted links stay as tombstones.
 */
@Repository
public class LinkRepository {

    private static final String COLUMNS = "code, long_url, redirect_status, alias, created_at, expires_at, "
            + "max_visits, disabled, forward_query, api_key_id, deleted_at";

    private final DatabaseClient db;

    LinkRepository(DatabaseClient db) {
        this.db = db;
    }

    /** The link with this code (exact, case-sensitive), tombstones included, or empty. */
    public Mono<Link> findByCode(String code) {
        return db.sql("SELECT " + COLUMNS + " FROM link WHERE code = :code")
                .bind("code", code)
                .map(LinkRepository::toLink)
                .one();
    }

    /** Every code, tombstones included, read a page at a time in code order (for building a filter of codes). */
    public Flux<String> allCodes(int pageSize) {
        return codesAfter("", pageSize)
                .expand(page -> page.size() < pageSize ? Mono.empty() : codesAfter(page.get(page.size() - 1), pageSize))
                .concatMapIterable(page -> page);
    }

    private Mono<List<String>> codesAfter(String after, int pageSize) {
        return db.sql("SELECT code FROM link WHERE code > :after ORDER BY code LIMIT " + pageSize)
                .bind("after", after)
                .map(row -> row.get("code", String.class))
                .all()
                .collectList();
    }

    /** Codes of links created at or after this instant. */
    public Flux<String> codesCreatedSince(Instant since) {
        return db.sql("SELECT code FROM link WHERE created_at >= :since")
                .bind("since", toDb(since))
                .map(row -> row.get("code", String.class))
                .all();
    }

    /** A link as stored, with the version a conditional {@link #update} must name. */
    record Versioned(Link link, long version) {
    }

    /** The link with this code and its current version, tombstones included, or empty. */
    Mono<Versioned> findVersioned(String code) {
        return db.sql("SELECT " + COLUMNS + ", version FROM link WHERE code = :code")
                .bind("code", code)
                .map(row -> new Versioned(toLink(row), ((Number) row.get("version")).longValue()))
                .one();
    }

    /** Live generated links of this URL; find-if-exists picks among them. */
    Flux<Link> findGenerated(String url) {
        return db.sql("SELECT " + COLUMNS + " FROM link WHERE long_url_hash = :hash AND alias = FALSE "
                        + "AND deleted_at IS NULL")
                .bind("hash", hash(url))
                .map(LinkRepository::toLink)
                .all();
    }

    /** Inserts the link; emits {@code false} when the code is already taken (tombstones included). */
    Mono<Boolean> insert(Link link) {
        var spec = db.sql("INSERT INTO link (code, long_url, long_url_hash, redirect_status, alias, created_at, "
                        + "expires_at, max_visits, disabled, forward_query, api_key_id) VALUES (:code, :url, :hash, "
                        + ":status, :alias, :createdAt, :expiresAt, :maxVisits, :disabled, :forwardQuery, :apiKeyId)")
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
        return spec.fetch().rowsUpdated()
                .map(rows -> rows > 0)
                .onErrorResume(DuplicateKeyException.class, e -> Mono.just(false));
    }

    /**
     * Writes a live link's editable fields if it is still at {@code version}; emits {@code false} when it has
     * changed since (or is gone), so the caller can re-read it and apply its change again.
     */
    Mono<Boolean> update(Link link, long version, Instant now) {
        var spec = db.sql("UPDATE link SET long_url = :url, long_url_hash = :hash, redirect_status = :status, "
                        + "expires_at = :expiresAt, max_visits = :maxVisits, disabled = :disabled, "
                        + "forward_query = :forwardQuery, updated_at = :now, version = version + 1 "
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
        return spec.fetch().rowsUpdated().map(rows -> rows > 0);
    }

    /** Turns a live link into a tombstone; emits {@code false} when there was none. */
    Mono<Boolean> markDeleted(String code, Instant now) {
        return db.sql("UPDATE link SET deleted_at = :now, version = version + 1 WHERE code = :code "
                        + "AND deleted_at IS NULL")
                .bind("code", code)
                .bind("now", toDb(now))
                .fetch().rowsUpdated().map(rows -> rows > 0);
    }

    /**
     * Live links, newest first, after the cursor position; optionally only those one API key created.
     *
     * @param owner      the creating key's id, or {@code null} for all links
     * @param afterTime  the cursor's creation time, or {@code null} for the first page
     * @param afterCode  the cursor's code (ties on creation time are ordered by code)
     */
    Flux<Link> page(Long owner, Instant afterTime, String afterCode, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM link WHERE deleted_at IS NULL");
        if (owner != null) {
            sql.append(" AND api_key_id = :owner");
        }
        if (afterTime != null) {
            sql.append(" AND (created_at < :afterTime OR (created_at = :afterTime AND code < :afterCode))");
        }
        sql.append(" ORDER BY created_at DESC, code DESC LIMIT ").append(limit);
        var spec = db.sql(sql.toString());
        if (owner != null) {
            spec = spec.bind("owner", owner);
        }
        if (afterTime != null) {
            spec = spec.bind("afterTime", toDb(afterTime)).bind("afterCode", afterCode);
        }
        return spec.map(LinkRepository::toLink).all();
    }

    private static <T> DatabaseClient.GenericExecuteSpec bindNullable(DatabaseClient.GenericExecuteSpec spec,
            String name, T value, Class<T> type) {
        return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
    }

    static Link toLink(Readable row) {
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
    static boolean bool(Object value) {
        return value instanceof Boolean b ? b : value instanceof Number n && n.intValue() != 0;
    }

    /** Times are stored as UTC wall-clock values, so no driver or server time zone can shift them. */
    static LocalDateTime toDb(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant fromDb(LocalDateTime value) {
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }

    static byte[] hash(String url) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(url.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
