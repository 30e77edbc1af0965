package dev.shortgate.visit;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Reads for the stats API, all from the aggregates: per-day counters from {@code link_stats}, top lists from
 * {@code visit_dim_stats}, unique visitors from the sketches in {@code visit_sketch}. Each costs the same for a link
 * with ten visits a day or a million: its rows are per day (and label), never per visit. Raw rows are read only
 * for the raw-visit list.
 */
@Repository
class VisitQueries {

    /** @param date the UTC day, @param visits all visits, @param botVisits those made by bots */
    record DayCount(LocalDate date, long visits, long botVisits) {
    }

    /** @param label the value, @param visits how many visits had it */
    record LabelCount(String label, long visits) {
    }

    private final DatabaseClient db;

    VisitQueries(DatabaseClient db) {
        this.db = db;
    }

    /**
     * The key that created the live (not deleted) link with this code, as an Optional that is empty for the
     * configured admin key; an empty Mono when there is no such link (its stats are then a 404).
     */
    Mono<java.util.Optional<Long>> liveLinkOwner(String code) {
        return db.sql("SELECT api_key_id FROM link WHERE code = :code AND deleted_at IS NULL")
                .bind("code", code)
                .map(row -> java.util.Optional.ofNullable(row.get("api_key_id"))
                        .map(owner -> ((Number) owner).longValue()))
                .one();
    }

    /** Per-day counters of the days in {@code [from, to]} that had visits, in date order. */
    Flux<DayCount> perDay(String code, LocalDate from, LocalDate to) {
        return db.sql("SELECT stat_date, visits, bot_visits FROM link_stats WHERE code = :code "
                        + "AND stat_date >= :from AND stat_date <= :to ORDER BY stat_date")
                .bind("code", code)
                .bind("from", from)
                .bind("to", to)
                .map(row -> new DayCount(row.get("stat_date", LocalDate.class), number(row, "visits"),
                        number(row, "bot_visits")))
                .all();
    }

    /**
     * Estimated distinct visitors over the UTC days {@code [from, to]}: the union of every pod's sketch of each day
     * ({@link UniqueVisitors}); bots left out unless {@code bots}.
     */
    Mono<Long> uniqueVisitors(String code, LocalDate from, LocalDate to, boolean bots) {
        return db.sql("SELECT " + (bots ? "visitors" : "human_visitors") + " AS sketch FROM visit_sketch "
                        + "WHERE code = :code AND stat_date >= :from AND stat_date <= :to")
                .bind("code", code)
                .bind("from", from)
                .bind("to", to)
                .map(row -> bytes(row.get("sketch")))
                .all()
                .collectList()
                .publishOn(Schedulers.parallel())
                .map(UniqueVisitors::estimate);
    }

    /**
     * The {@code limit} labels with the most visits of every dimension, most first; bots left out unless asked.
     * One query for all five: it reads the link's rows once, in key order (code, dim, label, day), and ranks each
     * dimension's labels with a window function.
     */
    Mono<Map<Dimension, List<LabelCount>>> top(String code, LocalDate from, LocalDate to, boolean bots, int limit) {
        return db.sql("SELECT dim, label, n FROM (SELECT dim, label, n, ROW_NUMBER() OVER (PARTITION BY dim "
                        + "ORDER BY n DESC, label) AS rk FROM (SELECT dim, label, SUM("
                        + (bots ? "visits" : "visits - bot_visits") + ") AS n FROM visit_dim_stats "
                        + "WHERE code = :code AND stat_date >= :from AND stat_date <= :to GROUP BY dim, label) g "
                        + "WHERE n > 0) r WHERE rk <= " + limit + " ORDER BY dim, rk")
                .bind("code", code)
                .bind("from", from)
                .bind("to", to)
                .map(row -> Map.entry(((Number) row.get("dim")).intValue(),
                        new LabelCount(row.get("label", String.class), number(row, "n"))))
                .all()
                .collect(() -> new EnumMap<Dimension, List<LabelCount>>(Dimension.class), (map, entry) -> {
                    for (Dimension dimension : Dimension.values()) {
                        if (dimension.id == entry.getKey()) {
                            map.computeIfAbsent(dimension, d -> new ArrayList<>()).add(entry.getValue());
                        }
                    }
                });
    }

    /** Visits of a code, newest id first, after the {@code cursor} id when one is given. */
    Flux<Visit> visits(String code, byte[] cursor, int limit) {
        var spec = db.sql("SELECT id, code, visited_at, client_id, ip, user_agent, referer, country, city, browser, "
                        + "browser_version, os, device_class, bot FROM visit WHERE code = :code"
                        + (cursor == null ? "" : " AND id < :cursor") + " ORDER BY id DESC LIMIT " + limit)
                .bind("code", code);
        if (cursor != null) {
            spec = spec.bind("cursor", cursor);
        }
        return spec.map(VisitQueries::toVisit).all();
    }

    private static Visit toVisit(Readable row) {
        return new Visit(bytes(row.get("id")), row.get("code", String.class),
                row.get("visited_at", LocalDateTime.class).toInstant(ZoneOffset.UTC),
                row.get("client_id", String.class), row.get("ip", String.class), row.get("user_agent", String.class),
                row.get("referer", String.class), row.get("country", String.class), row.get("city", String.class),
                row.get("browser", String.class), row.get("browser_version", String.class),
                row.get("os", String.class), row.get("device_class", String.class), bool(row.get("bot")));
    }

    /** BINARY comes back as byte[] or ByteBuffer depending on the driver. */
    private static byte[] bytes(Object value) {
        if (value instanceof byte[] array) {
            return array;
        }
        if (value instanceof java.nio.ByteBuffer buffer) {
            byte[] array = new byte[buffer.remaining()];
            buffer.duplicate().get(array);
            return array;
        }
        throw new IllegalStateException("Unexpected type for a BINARY column: " + value);
    }

    /** BOOLEAN is a real boolean in H2 and TINYINT(1) in MySQL; drivers hand back either. */
    private static boolean bool(Object value) {
        return value instanceof Boolean b ? b : value instanceof Number n && n.intValue() != 0;
    }

    private static long number(Readable row, String name) {
        Object value = row.get(name);
        return value == null ? 0 : ((Number) value).longValue();
    }
}
