package dev.shortgate.visit.orphan;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
            + "country, city, browser, browser_version, os, device_class, bot FROM orphan_visit";

    /**
     * One raw orphan visit.
     *
     * @param path    the path and query asked for, from its leading {@code /}
     * @param visitor who asked, as for a visit of a link
     */
    public record Row(byte[] id, OrphanVisitType type, String path, Instant visitedAt, Visitor visitor) {

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
     */
    public record Filter(OrphanVisitType type, Instant from, Instant to, boolean excludeBots) {}

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
        return db.sql("SELECT COALESCE(SUM(visits), 0) AS visits, COALESCE(SUM(bot_visits), 0) AS bot_visits "
                        + "FROM orphan_visit_stats")
                .map(row -> new Totals(
                        ((Number) row.get("visits")).longValue(), ((Number) row.get("bot_visits")).longValue()))
                .one();
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
                        .thenReturn(rows));
    }

    private static String where(Filter filter, byte[] cursor, Map<String, Object> params) {
        List<String> where = new ArrayList<>();
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
                Visitor.read(row));
    }
}
