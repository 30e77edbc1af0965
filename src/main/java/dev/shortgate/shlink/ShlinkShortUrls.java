package dev.shortgate.shlink;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.link.store.LinkRows;
import dev.shortgate.link.store.LinkTags;
import dev.shortgate.system.database.LinkTables;
import io.r2dbc.spi.Readable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Short URLs as Shlink shows them: Shortgate's links joined with their Shlink fields ({@code link_shlink_meta}), tags
 * ({@link LinkTags}) and visit totals ({@code link_stats}). Reads the link table; links are still
 * created, changed and deleted only through {@link dev.shortgate.link.LinkService}.
 */
@Repository
class ShlinkShortUrls {

    private static final String SELECT = "SELECT l.code, l.long_url, l.redirect_status, l.alias, l.created_at, "
            + "l.expires_at, l.max_visits, l.disabled, l.forward_query, l.api_key_id, l.deleted_at, m.title, "
            + "m.crawlable, m.valid_since, COALESCE(s.visits, 0) AS visits, COALESCE(s.bot_visits, 0) AS bot_visits, "
            + "COALESCE(s.visits, 0) - COALESCE(s.bot_visits, 0) AS non_bot_visits ";
    private final DatabaseClient db;
    private final LinkTags tags;
    /** The links of every table layout joined with their Shlink fields and visit totals ({@link LinkTables#all}). */
    private final String from;

    ShlinkShortUrls(DatabaseClient db, LinkTables tables, LinkTags tags) {
        this.db = db;
        this.tags = tags;
        this.from = "FROM " + tables.all() + " l LEFT JOIN link_shlink_meta m ON m.code = l.code "
                + "LEFT JOIN (SELECT code, SUM(visits) AS visits, SUM(bot_visits) AS bot_visits FROM link_stats "
                + "GROUP BY code) s ON s.code = l.code WHERE l.deleted_at IS NULL";
    }

    /** One live short URL, with its tags; empty when there is none. */
    Mono<ShortUrlRow> find(String code) {
        return db.sql(SELECT + from + " AND l.code = :code")
                .bind("code", code)
                .map(ShlinkShortUrls::toRow)
                .one()
                .flatMap(row -> tagsOf(List.of(code)).map(tags -> row.withTags(tags.getOrDefault(code, List.of()))));
    }

    /** One page of the list, with tags. */
    Flux<ShortUrlRow> page(ShortUrlQuery query, int offset, int limit) {
        Map<String, Object> params = new HashMap<>();
        String where = where(query, params);
        var spec = db.sql(
                SELECT + from + where + " ORDER BY " + query.orderBy() + " LIMIT " + limit + " OFFSET " + offset);
        for (var param : params.entrySet()) {
            spec = spec.bind(param.getKey(), param.getValue());
        }
        return spec.map(ShlinkShortUrls::toRow).all().collectList().flatMapMany(rows -> {
            if (rows.isEmpty()) {
                return Flux.empty();
            }
            return tagsOf(rows.stream().map(row -> row.link().code()).toList()).flatMapIterable(tags -> rows.stream()
                    .map(row -> row.withTags(tags.getOrDefault(row.link().code(), List.of())))
                    .toList());
        });
    }

    /** How many short URLs the list's filters match. */
    Mono<Long> count(ShortUrlQuery query) {
        Map<String, Object> params = new HashMap<>();
        String where = where(query, params);
        var spec = db.sql("SELECT COUNT(*) AS n " + from + where);
        for (var param : params.entrySet()) {
            spec = spec.bind(param.getKey(), param.getValue());
        }
        return spec.map(row -> ((Number) row.get("n")).longValue()).one();
    }

    private static String where(ShortUrlQuery query, Map<String, Object> params) {
        StringBuilder where = new StringBuilder();
        if (query.owner() != null) {
            where.append(" AND l.api_key_id = :owner");
            params.put("owner", query.owner());
        }
        if (query.searchTerm() != null && !query.searchTerm().isBlank()) {
            where.append(" AND (LOWER(l.long_url) LIKE :term OR LOWER(l.code) LIKE :term OR LOWER(m.title) LIKE :term"
                    + " OR EXISTS (SELECT 1 FROM link_tag lt JOIN tag t ON t.id = lt.tag_id WHERE lt.code = l.code"
                    + " AND LOWER(t.name) LIKE :term))");
            params.put("term", "%" + likeEscaped(query.searchTerm().trim().toLowerCase(Locale.ROOT)) + "%");
        }
        if (!query.tags().isEmpty()) {
            String matching = "SELECT COUNT(DISTINCT t.id) FROM link_tag lt JOIN tag t ON t.id = lt.tag_id "
                    + "WHERE lt.code = l.code AND t.name IN (:tags)";
            where.append(
                    query.allTags()
                            ? " AND (" + matching + ") = " + new LinkedHashSet<>(query.tags()).size()
                            : " AND (" + matching + ") > 0");
            params.put("tags", List.copyOf(query.tags()));
        }
        if (!query.excludeTags().isEmpty()) {
            String matching = "SELECT COUNT(DISTINCT t.id) FROM link_tag lt JOIN tag t ON t.id = lt.tag_id "
                    + "WHERE lt.code = l.code AND t.name IN (:excludeTags)";
            where.append(
                    query.excludeAllTags()
                            ? " AND (" + matching + ") < " + new LinkedHashSet<>(query.excludeTags()).size()
                            : " AND (" + matching + ") = 0");
            params.put("excludeTags", List.copyOf(query.excludeTags()));
        }
        if (query.apiKeyName() != null) {
            where.append(" AND l.api_key_id IN (SELECT k.id FROM api_key k WHERE k.name = :apiKeyName)");
            params.put("apiKeyName", query.apiKeyName());
        }
        if (query.domainId() != null) {
            where.append(
                    query.domainId() == ShortUrlQuery.NO_DOMAIN
                            ? " AND 1 = 0" // a domain Shortgate does not have holds no short URLs
                            : " AND " + DomainCodes.sqlMatch("l.code", query.domainId()));
        }
        if (query.startDate() != null) {
            where.append(" AND l.created_at >= :startDate");
            params.put("startDate", LinkRows.toDb(query.startDate()));
        }
        if (query.endDate() != null) {
            where.append(" AND l.created_at <= :endDate");
            params.put("endDate", LinkRows.toDb(query.endDate()));
        }
        if (query.excludeMaxVisitsReached()) {
            where.append(" AND (l.max_visits IS NULL OR l.max_visits > COALESCE(s.visits, 0))");
        }
        if (query.excludePastValidUntil()) {
            where.append(" AND (l.expires_at IS NULL OR l.expires_at > :now)");
            params.put("now", LinkRows.toDb(query.now()));
        }
        return where.toString();
    }

    /** LIKE's wildcards in a search term match themselves. */
    private static String likeEscaped(String term) {
        return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    /** The tags of each code, by name ({@link LinkTags#of}). */
    Mono<Map<String, List<String>>> tagsOf(List<String> codes) {
        return tags.of(codes);
    }

    /** Gives a link exactly these tags ({@link LinkTags#set}). */
    Mono<Void> setTags(String code, List<String> names) {
        return tags.set(code, names);
    }

    /** Writes Shlink's own fields of a link. */
    Mono<Void> saveMeta(String code, String title, boolean crawlable, Instant validSince) {
        return deleteMeta(code)
                .then(bindNullable(
                                bindNullable(
                                        db.sql(
                                                        "INSERT INTO link_shlink_meta (code, title, crawlable, "
                                                                + "valid_since) VALUES (:code, :title, :crawlable, :validSince)")
                                                .bind("code", code)
                                                .bind("crawlable", crawlable),
                                        "title",
                                        title,
                                        String.class),
                                "validSince",
                                LinkRows.toDb(validSince),
                                LocalDateTime.class)
                        .fetch()
                        .rowsUpdated())
                .onErrorResume(DuplicateKeyException.class, e -> Mono.empty()) // a concurrent edit wrote it
                .then();
    }

    /**
     * Deletes a link's Shlink fields: before they are written anew, and when the link is deleted (the link itself
     * stays as a tombstone; {@code LinkService.delete} has taken its tags off).
     */
    Mono<Void> deleteMeta(String code) {
        return db.sql("DELETE FROM link_shlink_meta WHERE code = :code")
                .bind("code", code)
                .fetch()
                .rowsUpdated()
                .then();
    }

    private static <T> DatabaseClient.GenericExecuteSpec bindNullable(
            DatabaseClient.GenericExecuteSpec spec, String name, T value, Class<T> type) {
        return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
    }

    private static ShortUrlRow toRow(Readable row) {
        Object crawlable = row.get("crawlable");
        return new ShortUrlRow(
                LinkRows.toLink(row),
                row.get("title", String.class),
                crawlable != null && LinkRows.bool(crawlable),
                LinkRows.fromDb(row.get("valid_since", LocalDateTime.class)),
                ((Number) row.get("visits")).longValue(),
                ((Number) row.get("bot_visits")).longValue(),
                List.of());
    }
}
