package dev.shortgate.shlink;

import java.util.List;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.system.database.LinkTables;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Tags, their counts and renames. */
@Repository
class ShlinkTags {

    /** A tag with the live short URLs carrying it and their visits (bots included in {@code visits}). */
    record TagStats(String tag, long shortUrls, long visits, long botVisits) {}

    private final DatabaseClient db;

    private final LinkTables tables;

    ShlinkTags(DatabaseClient db, LinkTables tables) {
        this.db = db;
        this.tables = tables;
    }

    /**
     * Every tag in name order, with counts; only those on the owner's links when {@code owner} is set (a key that
     * sees only its own links sees only their tags), and only those on one domain's links when {@code domainId} is
     * set (a key limited to that domain).
     */
    Flux<TagStats> stats(Long owner, Integer domainId) {
        String links = "SELECT lt.tag_id, lt.code FROM link_tag lt JOIN " + tables.all() + " l ON l.code = lt.code "
                + "WHERE l.deleted_at IS NULL" + (owner == null ? "" : " AND l.api_key_id = :owner")
                + (domainId == null ? "" : " AND " + DomainCodes.sqlMatch("l.code", domainId));
        String sql = "SELECT t.name, COUNT(tl.code) AS urls, COALESCE(SUM(s.visits), 0) AS visits, "
                + "COALESCE(SUM(s.bot_visits), 0) AS bot_visits FROM tag t "
                + (owner == null && domainId == null ? "LEFT JOIN" : "JOIN") + " (" + links
                + ") tl ON tl.tag_id = t.id "
                + "LEFT JOIN (SELECT code, SUM(visits) AS visits, SUM(bot_visits) AS bot_visits FROM link_stats "
                + "GROUP BY code) s ON s.code = tl.code GROUP BY t.name ORDER BY t.name";
        var spec = db.sql(sql);
        if (owner != null) {
            spec = spec.bind("owner", owner);
        }
        return spec.map(row -> new TagStats(
                        row.get("name", String.class),
                        number(row.get("urls")),
                        number(row.get("visits")),
                        number(row.get("bot_visits"))))
                .all();
    }

    Mono<Boolean> exists(String name) {
        return db.sql("SELECT COUNT(*) AS n FROM tag WHERE name = :name")
                .bind("name", name)
                .map(row -> number(row.get("n")) > 0)
                .one();
    }

    /** Renames a tag: empty when there is none of that name, {@code false} when the new name is taken. */
    Mono<Boolean> rename(String oldName, String newName) {
        return db.sql("UPDATE tag SET name = :newName WHERE name = :oldName")
                .bind("oldName", oldName)
                .bind("newName", newName)
                .fetch()
                .rowsUpdated()
                .flatMap(rows -> rows > 0 ? Mono.just(true) : Mono.<Boolean>empty())
                .onErrorResume(DuplicateKeyException.class, e -> Mono.just(false));
    }

    /** Deletes the tags (and takes them off every link); unknown names are ignored, as in Shlink. */
    Mono<Void> delete(List<String> names) {
        if (names.isEmpty()) {
            return Mono.empty();
        }
        return db.sql("DELETE FROM link_tag WHERE tag_id IN (SELECT id FROM tag WHERE name IN (:names))")
                .bind("names", names)
                .fetch()
                .rowsUpdated()
                .then(db.sql("DELETE FROM tag WHERE name IN (:names)")
                        .bind("names", names)
                        .fetch()
                        .rowsUpdated())
                .then();
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }
}
