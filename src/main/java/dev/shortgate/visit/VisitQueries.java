package dev.shortgate.visit;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads for the stats API: counters from {@code link_stats}, everything else from {@code visit}. */
@Repository
class VisitQueries {

    /** Columns the stats API ranks, by the name it uses for them. Fixed strings: never built from input. */
    enum Ranked {
        COUNTRY("country"), BROWSER("browser"), OS("os"), DEVICE_CLASS("device_class"), REFERER("referer");

        final String column;

        Ranked(String column) {
            this.column = column;
        }
    }

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

    /** Distinct client ids among the visits of the UTC days {@code [from, to]}. */
    Mono<Long> uniqueVisitors(String code, LocalDate from, LocalDate to, boolean bots) {
        return db.sql("SELECT COUNT(DISTINCT client_id) AS n FROM visit WHERE " + range(bots))
                .bind("code", code)
                .bind("from", start(from))
                .bind("to", start(to.plusDays(1)))
                .map(row -> number(row, "n"))
                .one();
    }

    /** The {@code limit} most frequent non-null values of a column, most visits first. */
    Mono<List<LabelCount>> top(Ranked ranked, String code, LocalDate from, LocalDate to, boolean bots, int limit) {
        return db.sql("SELECT " + ranked.column + " AS label, COUNT(*) AS n FROM visit WHERE " + range(bots)
                        + " AND " + ranked.column + " IS NOT NULL GROUP BY " + ranked.column
                        + " ORDER BY n DESC, label LIMIT " + limit)
                .bind("code", code)
                .bind("from", start(from))
                .bind("to", start(to.plusDays(1)))
                .map(row -> new LabelCount(row.get("label", String.class), number(row, "n")))
                .all()
                .collectList();
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

    private static String range(boolean bots) {
        return "code = :code AND visited_at >= :from AND visited_at < :to" + (bots ? "" : " AND bot = FALSE");
    }

    private static LocalDateTime start(LocalDate day) {
        return day.atStartOfDay();
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
