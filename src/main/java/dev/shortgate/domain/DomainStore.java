package dev.shortgate.domain;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import dev.shortgate.system.database.LinkTables;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The {@code domains} table: one row per domain other than the default. */
@Component
class DomainStore {

    private final DatabaseClient db;
    private final LinkTables tables;

    DomainStore(DatabaseClient db, LinkTables tables) {
        this.db = db;
        this.tables = tables;
    }

    /** Whether a live link (not a tombstone) is stored under this domain's keys ({@link DomainCodes}). */
    Mono<Boolean> hasLinks(int id) {
        // id is an int: the literal cannot inject anything
        return db.sql("SELECT code FROM " + tables.all() + " WHERE code LIKE '" + DomainCodes.prefix(id)
                        + "%' AND deleted_at IS NULL LIMIT 1")
                .map(row -> true)
                .first()
                .defaultIfEmpty(false);
    }

    Flux<Domain> all() {
        return db.sql("SELECT id, host, created_at FROM domains ORDER BY id")
                .map(row -> new Domain(
                        ((Number) row.get("id")).intValue(),
                        row.get("host", String.class),
                        row.get("created_at", LocalDateTime.class).toInstant(ZoneOffset.UTC)))
                .all();
    }

    /** Inserts a domain; fails with a duplicate-key error when the host is already there. */
    Mono<Domain> insert(String host, Instant createdAt) {
        return db.sql("INSERT INTO domains (host, created_at) VALUES (:host, :at)")
                .bind("host", host)
                .bind("at", LocalDateTime.ofInstant(createdAt, ZoneOffset.UTC))
                .filter(statement -> statement.returnGeneratedValues("id"))
                .map(row -> new Domain(((Number) row.get("id")).intValue(), host, createdAt))
                .one();
    }

    /**
     * Deletes a domain's row, then its settings (its not-found redirects and default status, keyed by host in
     * {@code domain_redirect}), so a domain added again later starts without them; emits how many domain rows went
     * (0 when another pod removed it first).
     */
    Mono<Long> delete(Domain domain) {
        return db.sql("DELETE FROM domains WHERE id = :id")
                .bind("id", domain.id())
                .fetch()
                .rowsUpdated()
                .flatMap(deleted -> db.sql("DELETE FROM domain_redirect WHERE domain = :host")
                        .bind("host", domain.host())
                        .fetch()
                        .rowsUpdated()
                        .thenReturn(deleted));
    }
}
