package dev.shortgate.visit.orphan;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.VisitId;
import dev.shortgate.visit.Visitor;
import dev.shortgate.visit.stats.VisitQueries;
import io.r2dbc.spi.Readable;
import org.springframework.modulith.NamedInterface;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Orphan visits as recorded (GETs on the traffic port that reached no link; see {@link OrphanVisitType}): their raw
 * rows ({@code orphan_visit}, newest first, shed under overload and kept for {@code raw-retention} like visits'),
 * and their exact totals from the per-day counts ({@code orphan_visit_stats}). Shared by Shortgate's API and
 * Shlink's.
 */
@Repository
@NamedInterface("orphans")
public class OrphanVisits {

    /** Rows deleted per statement when every orphan visit is deleted, so no statement holds many locks. */
    static final int DELETE_BATCH = 5000;

    private static final String COLUMNS = "SELECT id, type, visited_path, visited_at, ip, user_agent, referer, "
            + "country, city, browser, browser_version, os, device_class, bot, domain_id FROM orphan_visit";

    /**
     * One raw orphan visit.
     *
     * @param path     the path and query asked for, from its leading {@code /}
     * @param visitor  who asked, as for a visit of a link
     * @param domainId the short domain the request's host picked (0: the default domain, and every orphan visit
     *                 recorded before domains were)
     */
    public record Row(byte[] id, OrphanVisitType type, String path, Instant visitedAt, Visitor visitor, int domainId) {

        /** The id in its 16-character form (a cursor for {@link #after}). */
        public String idText() {
            return VisitId.toText(id);
        }
    }

    /**
     * Which orphan visits: all when every field is empty.
     *
     * @param type        only this type, or {@code null} for all
     * @param from        only visits at or after this instant, or {@code null}
     * @param to          only visits at or before this instant, or {@code null}
     * @param excludeBots leave out visits classed as bots
     * @param domainId    only those of the domain with this id (0: the default domain), or {@code null} for all
     */
    public record Filter(OrphanVisitType type, Instant from, Instant to, boolean excludeBots, Integer domainId) {

        /** Orphan visits of every domain. */
        public Filter(OrphanVisitType type, Instant from, Instant to, boolean excludeBots) {
            this(type, from, to, excludeBots, null);
        }
    }

    /** Every orphan visit counted (bots included) and the bots among them. */
    public record Totals(long visits, long botVisits) {}

    private final DatabaseClient db;

    OrphanVisits(DatabaseClient db) {
        this.db = db;
    }

    /** A page of the newest-first list, by offset (Shlink's paging). */
    public Flux<Row> page(Filter filter, int offset, int limit) {
        Map<String, Object> params = new LinkedHashMap<>();
        return db.sql(COLUMNS + where(filter, null, params) + " ORDER BY id DESC LIMIT " + limit + " OFFSET " + offset)
                .bindValues(params)
                .map(OrphanVisits::toRow)
                .all();
    }

    /** The newest-first list after the {@code cursor} id when one is given (Shortgate's keyset paging). */
    public Flux<Row> after(Filter filter, String cursor, int limit) {
        Map<String, Object> params = new LinkedHashMap<>();
        return db.sql(COLUMNS + where(filter, cursor == null ? null : VisitId.fromText(cursor), params)
                        + " ORDER BY id DESC LIMIT " + limit)
                .bindValues(params)
                .map(OrphanVisits::toRow)
                .all();
    }

    /** Raw rows that match (what a list pages through; fewer than {@link #totals} when rows were shed). */
    public Mono<Long> count(Filter filter) {
        Map<String, Object> params = new LinkedHashMap<>();
        return db.sql("SELECT COUNT(*) AS n FROM orphan_visit" + where(filter, null, params))
                .bindValues(params)
                .map(row -> ((Number) row.get("n")).longValue())
                .one();
    }

    /** Every orphan visit counted, from the per-day counts: exact, whether or not its raw row was kept. */
    public Mono<Totals> totals() {
        return sum("SELECT COALESCE(SUM(visits), 0) AS visits, COALESCE(SUM(bot_visits), 0) AS bot_visits "
                + "FROM orphan_visit_stats");
    }

    /**
     * The orphan visits of one domain counted, as {@link #totals()}: {@code orphan_visit_domain_stats} holds the
     * counts of the domains other than the default one, and the default domain's are every count less theirs (every
     * orphan visit counted before domains were recorded was the default domain's).
     */
    public Mono<Totals> totals(int domainId) {
        if (domainId != 0) {
            return sum("SELECT COALESCE(SUM(visits), 0) AS visits, COALESCE(SUM(bot_visits), 0) AS bot_visits "
                    + "FROM orphan_visit_domain_stats WHERE domain_id = " + domainId);
        }
        return Mono.zip(
                        totals(),
                        sum("SELECT COALESCE(SUM(visits), 0) AS visits, "
                                + "COALESCE(SUM(bot_visits), 0) AS bot_visits FROM orphan_visit_domain_stats"))
                .map(both -> new Totals(
                        both.getT1().visits() - both.getT2().visits(),
                        both.getT1().botVisits() - both.getT2().botVisits()));
    }

    /**
     * Orphan visits counted per domain over the UTC days {@code from} to {@code to} (both included), by domain id;
     * a domain with none is left out. As {@link #totals(int)}, the default domain's are every count less the
     * others'.
     */
    public Mono<Map<Integer, Totals>> totalsByDomain(LocalDate from, LocalDate to) {
        Mono<Totals> all = sum(
                "SELECT COALESCE(SUM(visits), 0) AS visits, COALESCE(SUM(bot_visits), 0) AS "
                        + "bot_visits FROM orphan_visit_stats WHERE stat_date BETWEEN :from AND :to",
                from,
                to);
        Mono<Map<Integer, Totals>> others = db.sql("SELECT domain_id, SUM(visits) AS visits, SUM(bot_visits) AS "
                        + "bot_visits FROM orphan_visit_domain_stats WHERE stat_date BETWEEN :from AND :to "
                        + "GROUP BY domain_id")
                .bind("from", from)
                .bind("to", to)
                .map(row -> Map.entry(((Number) row.get("domain_id")).intValue(), totalsOf(row)))
                .all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue);
        return Mono.zip(all, others).map(both -> {
            Map<Integer, Totals> byDomain = new TreeMap<>(both.getT2());
            long visits = both.getT1().visits();
            long bots = both.getT1().botVisits();
            for (Totals other : both.getT2().values()) {
                visits -= other.visits();
                bots -= other.botVisits();
            }
            if (visits > 0) {
                byDomain.put(0, new Totals(visits, bots));
            }
            return byDomain;
        });
    }

    private Mono<Totals> sum(String sql) {
        return db.sql(sql).map(OrphanVisits::totalsOf).one();
    }

    private Mono<Totals> sum(String sql, LocalDate from, LocalDate to) {
        return db.sql(sql)
                .bind("from", from)
                .bind("to", to)
                .map(OrphanVisits::totalsOf)
                .one();
    }

    private static Totals totalsOf(Readable row) {
        return new Totals(((Number) row.get("visits")).longValue(), ((Number) row.get("bot_visits")).longValue());
    }

    /**
     * Deletes every orphan visit there is now: the raw rows up to the newest one, in statements of
     * {@link #DELETE_BATCH}, then the counts. Answers the raw rows deleted. Visits counted by a pod and not yet
     * written (at most one {@code counts-flush-interval}) are added after it.
     */
    public Mono<Long> deleteAll() {
        return db.sql("SELECT MAX(id) AS newest FROM orphan_visit")
                .map(row -> {
                    Object newest = row.get("newest");
                    return newest == null ? new byte[0] : VisitQueries.bytes(newest);
                })
                .one()
                .flatMap(newest -> {
                    if (newest.length == 0) {
                        return Mono.just(0L);
                    }
                    Mono<Long> batch = Mono.defer(
                            () -> db.sql("DELETE FROM orphan_visit WHERE id <= :newest LIMIT " + DELETE_BATCH)
                                    .bind("newest", newest)
                                    .fetch()
                                    .rowsUpdated());
                    return batch.expand(n -> n >= DELETE_BATCH ? batch : Mono.empty())
                            .reduce(0L, Long::sum);
                })
                .flatMap(rows -> db.sql("DELETE FROM orphan_visit_stats")
                        .fetch()
                        .rowsUpdated()
                        .then(db.sql("DELETE FROM orphan_visit_domain_stats")
                                .fetch()
                                .rowsUpdated())
                        .thenReturn(rows));
    }

    private static String where(Filter filter, byte[] cursor, Map<String, Object> params) {
        List<String> where = new ArrayList<>();
        if (filter.domainId() != null) {
            where.add("domain_id = " + filter.domainId()); // an int: nothing to bind
        }
        if (filter.type() != null) {
            where.add("type = " + filter.type().id);
        }
        if (cursor != null) {
            where.add("id < :cursor");
            params.put("cursor", cursor);
        }
        // Ids start with the second (unsigned 32 bits): an id bound narrows the primary-key range to the dates.
        if (filter.from() != null) {
            where.add("visited_at >= :from");
            params.put("from", LocalDateTime.ofInstant(filter.from(), ZoneOffset.UTC));
            if (idSecond(filter.from())) {
                where.add("id >= :fromId");
                params.put("fromId", VisitId.firstOfSecond(filter.from()));
            }
        }
        if (filter.to() != null) {
            where.add("visited_at <= :to");
            params.put("to", LocalDateTime.ofInstant(filter.to(), ZoneOffset.UTC));
            if (idSecond(filter.to().plusSeconds(1))) {
                where.add("id < :toId");
                params.put("toId", VisitId.firstOfSecond(filter.to().plusSeconds(1)));
            }
        }
        if (filter.excludeBots()) {
            where.add("bot = FALSE");
        }
        return where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where);
    }

    /** Whether a visit id can start with this instant's second. */
    private static boolean idSecond(Instant at) {
        return at.getEpochSecond() >= 0 && at.getEpochSecond() <= 0xFFFF_FFFFL;
    }

    private static Row toRow(Readable row) {
        return new Row(
                VisitQueries.bytes(row.get("id")),
                OrphanVisitType.ofId(((Number) row.get("type")).intValue()),
                row.get("visited_path", String.class),
                row.get("visited_at", LocalDateTime.class).toInstant(ZoneOffset.UTC),
                Visitor.read(row),
                ((Number) row.get("domain_id")).intValue());
    }
}
