package dev.shortgate.shlink;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.link.store.LinkRows;
import dev.shortgate.system.database.LinkTables;
import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Visits as Shlink lists them, from Shortgate's raw visit rows (newest first), and Shlink's totals from the
 * aggregates. Raw rows are kept for {@code shortgate.visit.raw-retention} and may be shed under overload, so a list
 * can hold fewer visits than the totals count.
 */
@Repository
class ShlinkVisits {

    /** One raw visit; {@code code} is {@code null} for an orphan visit ({@link ShlinkJson#orphanVisit}). */
    record VisitRow(
            String code,
            Instant visitedAt,
            String userAgent,
            String referer,
            String country,
            String city,
            boolean bot,
            String redirectUrl) {}

    /**
     * Which visits to list: one code (a stored key), a tag's links, or every link; optionally only an owner's, and
     * only those of the domain with {@code domainId} ({@code null}: every domain's).
     */
    record Scope(String code, String tag, Long owner, Integer domainId) {
        Scope(String code, String tag, Long owner) {
            this(code, tag, owner, null);
        }

        static Scope ofCode(String code) {
            return new Scope(code, null, null);
        }
    }

    private final DatabaseClient db;

    private final LinkTables tables;

    ShlinkVisits(DatabaseClient db, LinkTables tables) {
        this.db = db;
        this.tables = tables;
    }

    Flux<VisitRow> page(Scope scope, Instant from, Instant to, boolean excludeBots, int offset, int limit) {
        Map<String, Object> params = new HashMap<>();
        String sql = "SELECT v.code, v.visited_at, v.user_agent, v.referer, v.country, v.city, v.bot, v.redirect_url "
                + from(scope, from, to, excludeBots, params) + " ORDER BY v.id DESC LIMIT " + limit + " OFFSET "
                + offset;
        return db.sql(sql).bindValues(params).map(ShlinkVisits::toVisit).all();
    }

    Mono<Long> count(Scope scope, Instant from, Instant to, boolean excludeBots) {
        Map<String, Object> params = new HashMap<>();
        return db.sql("SELECT COUNT(*) AS n " + from(scope, from, to, excludeBots, params))
                .bindValues(params)
                .map(row -> ((Number) row.get("n")).longValue())
                .one();
    }

    /**
     * Every visit counted (bots included) and the bots among them, over all live links or an owner's; only the
     * domain with {@code domainId}'s when it is not {@code null}.
     */
    Mono<long[]> totals(Long owner, Integer domainId) {
        String sql = "SELECT COALESCE(SUM(s.visits), 0) AS visits, COALESCE(SUM(s.bot_visits), 0) AS bot_visits "
                + "FROM link_stats s"
                + (owner == null ? "" : " JOIN " + tables.all() + " l ON l.code = s.code AND l.api_key_id = :owner")
                + (domainId == null ? "" : " WHERE " + DomainCodes.sqlMatch("s.code", domainId));
        var spec = db.sql(sql);
        if (owner != null) {
            spec = spec.bind("owner", owner);
        }
        return spec.map(row -> new long[] {
                    ((Number) row.get("visits")).longValue(), ((Number) row.get("bot_visits")).longValue()
                })
                .one();
    }

    private String from(Scope scope, Instant from, Instant to, boolean excludeBots, Map<String, Object> params) {
        StringBuilder sql = new StringBuilder("FROM visit v");
        List<String> where = new ArrayList<>();
        if (scope.code() != null) {
            where.add("v.code = :code");
            params.put("code", scope.code());
        }
        if (scope.tag() != null || scope.owner() != null) {
            sql.append(" JOIN ").append(tables.all()).append(" l ON l.code = v.code AND l.deleted_at IS NULL");
            if (scope.owner() != null) {
                sql.append(" AND l.api_key_id = :owner");
                params.put("owner", scope.owner());
            }
        }
        if (scope.domainId() != null) {
            where.add(DomainCodes.sqlMatch("v.code", scope.domainId()));
        }
        if (scope.tag() != null) {
            where.add("v.code IN (SELECT lt.code FROM link_tag lt JOIN tag t ON t.id = lt.tag_id WHERE t.name = :tag)");
            params.put("tag", scope.tag());
        }
        if (from != null) {
            where.add("v.visited_at >= :from");
            params.put("from", LinkRows.toDb(from));
        }
        if (to != null) {
            where.add("v.visited_at <= :to");
            params.put("to", LinkRows.toDb(to));
        }
        if (excludeBots) {
            where.add("v.bot = FALSE");
        }
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", where));
        }
        return sql.toString();
    }

    private static VisitRow toVisit(Readable row) {
        return new VisitRow(
                row.get("code", String.class),
                LinkRows.fromDb(row.get("visited_at", LocalDateTime.class)),
                row.get("user_agent", String.class),
                row.get("referer", String.class),
                row.get("country", String.class),
                row.get("city", String.class),
                LinkRows.bool(row.get("bot")),
                row.get("redirect_url", String.class));
    }
}
