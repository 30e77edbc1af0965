package dev.shortgate.visit.stats;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.system.database.LinkTables;
import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.Visit;
import dev.shortgate.visit.Visitor;
import dev.shortgate.visit.counts.UniqueVisitors;
import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Reads for the stats API, all from the aggregates: per-day counters from {@code link_stats}, top lists from
 * {@code visit_dim_stats} and its monthly roll-up {@code visit_dim_month} (by the {@link TopLabels}), unique visitors
 * from the sketches in {@code visit_sketch}. Each costs the same for a link with ten visits a day or a million: its
 * rows are per day (and label), never per visit. Raw rows are read only for the raw-visit list.
 */
@Repository
public class VisitQueries {

    /** @param date the UTC day, @param visits all visits, @param botVisits those made by bots */
    record DayCount(LocalDate date, long visits, long botVisits) {}

    /** @param label the value, @param visits how many visits had it */
    record LabelCount(String label, long visits) {}

    /** How long a settled month's merged sketch is kept before it is read again (a pod may have written late). */
    static final Duration SETTLED_MONTH_TTL = Duration.ofHours(1);
    /** Bytes of merged month sketches kept (about 2.7 KB each, so about 12,000 link-months). */
    static final long SETTLED_MONTH_BYTES = 32L << 20;

    private record MonthKey(String code, LocalDate month, boolean bots) {}

    private final DatabaseClient db;
    private final Clock clock;
    private final Cache<MonthKey, byte[]> settledMonths;
    private final TopLabels topLabels;

    private final LinkTables tables;

    VisitQueries(DatabaseClient db, LinkTables tables, Clock clock, Ticker ticker) {
        this.db = db;
        this.tables = tables;
        this.clock = clock;
        this.settledMonths = Caffeine.newBuilder()
                .maximumWeight(SETTLED_MONTH_BYTES)
                .weigher((MonthKey key, byte[] union) -> union.length + 64)
                .expireAfterWrite(SETTLED_MONTH_TTL)
                .ticker(ticker)
                .build();
        this.topLabels = new TopLabels(db, clock, ticker);
    }

    /**
     * Visits of links counted per short domain over the UTC days {@code from} to {@code to} (both included), by
     * domain id (a domain with none is left out): the link keys' prefixes ({@code DomainCodes}) summed from
     * {@code link_stats}. With {@code domainId}, only that domain's keys are read (for another domain than the
     * default one, a range of the primary key); without, every key's rows of the range.
     */
    Mono<Map<Integer, long[]>> visitsByDomain(LocalDate from, LocalDate to, Integer domainId) {
        String prefix = "SUBSTRING(code, 1, LOCATE('" + DomainCodes.SEPARATOR + "', code))"; // '' or '3~'
        return db.sql("SELECT " + prefix + " AS prefix, SUM(visits) AS visits, SUM(bot_visits) AS bot_visits "
                        + "FROM link_stats WHERE stat_date BETWEEN :from AND :to"
                        + (domainId == null ? "" : " AND " + DomainCodes.sqlMatch("code", domainId))
                        + " GROUP BY " + prefix)
                .bind("from", from)
                .bind("to", to)
                .map(row -> {
                    String key = row.get("prefix", String.class);
                    int id = key == null || key.isEmpty() ? 0 : DomainCodes.domainId(key);
                    return Map.entry(id, new long[] {number(row, "visits"), number(row, "bot_visits")});
                })
                .all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue);
    }

    /**
     * The key that created the live (not deleted) link with this code, as an Optional that is empty for the
     * configured admin key; an empty Mono when there is no such link (its stats are then a 404).
     */
    Mono<java.util.Optional<Long>> liveLinkOwner(String code) {
        return db.sql("SELECT api_key_id FROM " + tables.all() + " WHERE code = :code AND deleted_at IS NULL")
                .bind("code", code)
                .map(row ->
                        java.util.Optional.ofNullable(row.get("api_key_id")).map(owner -> ((Number) owner).longValue()))
                .one();
    }

    /** Per-day counters of the days in {@code [from, to]} that had visits, in date order. */
    Flux<DayCount> perDay(String code, LocalDate from, LocalDate to) {
        return db.sql("SELECT stat_date, visits, bot_visits FROM link_stats WHERE code = :code "
                        + "AND stat_date >= :from AND stat_date <= :to ORDER BY stat_date")
                .bind("code", code)
                .bind("from", from)
                .bind("to", to)
                .map(row -> new DayCount(
                        row.get("stat_date", LocalDate.class), number(row, "visits"), number(row, "bot_visits")))
                .all();
    }

    /**
     * Estimated distinct visitors over the UTC days {@code [from, to]}: the union of every pod's sketch of each day
     * ({@link UniqueVisitors}); bots left out unless {@code bots}. The union of each whole month that is settled
     * (ended two days ago or earlier, so every pod has written its last sketches of it) is kept in memory, for at
     * most {@link #SETTLED_MONTH_TTL}; so a request over a year merges about twelve month sketches and the sketches
     * of the days of its first and last month, not 365 days × pods.
     */
    Mono<Long> uniqueVisitors(String code, LocalDate from, LocalDate to, boolean bots) {
        LocalDate today = LocalDate.now(clock);
        MonthSplit split = MonthSplit.of(from, to);
        List<byte[]> cached = new ArrayList<>();
        List<MonthSplit.Span> read = new ArrayList<>(split.days());
        Set<LocalDate> toSettle = new HashSet<>();
        for (LocalDate month : split.wholeMonths()) {
            boolean settled = settled(month, today);
            byte[] union = settled ? settledMonths.getIfPresent(new MonthKey(code, month, bots)) : null;
            if (union != null) {
                cached.add(union);
            } else {
                read.add(new MonthSplit.Span(month, month.withDayOfMonth(month.lengthOfMonth())));
                if (settled) {
                    toSettle.add(month);
                }
            }
        }
        if (read.isEmpty()) {
            return Mono.fromCallable(() -> UniqueVisitors.estimate(cached)).subscribeOn(Schedulers.parallel());
        }
        StringBuilder where = new StringBuilder();
        for (int i = 0; i < read.size(); i++) {
            where.append(i == 0 ? "" : " OR ")
                    .append("(stat_date >= :from")
                    .append(i)
                    .append(" AND stat_date <= :to")
                    .append(i)
                    .append(')');
        }
        var spec = db.sql("SELECT stat_date, " + (bots ? "visitors" : "human_visitors")
                        + " AS sketch FROM visit_sketch " + "WHERE code = :code AND (" + where + ")")
                .bind("code", code);
        for (int i = 0; i < read.size(); i++) {
            spec = spec.bind("from" + i, read.get(i).from())
                    .bind("to" + i, read.get(i).to());
        }
        return spec.map(row -> Map.entry(row.get("stat_date", LocalDate.class), bytes(row.get("sketch"))))
                .all()
                .collectList()
                .publishOn(Schedulers.parallel())
                .map(rows -> {
                    List<byte[]> sketches = new ArrayList<>(cached);
                    Map<LocalDate, List<byte[]>> settling = new HashMap<>();
                    for (Map.Entry<LocalDate, byte[]> row : rows) {
                        LocalDate month = row.getKey().withDayOfMonth(1);
                        if (toSettle.contains(month)) {
                            settling.computeIfAbsent(month, m -> new ArrayList<>())
                                    .add(row.getValue());
                        } else {
                            sketches.add(row.getValue());
                        }
                    }
                    for (LocalDate month : toSettle) {
                        byte[] union = UniqueVisitors.union(settling.getOrDefault(month, List.of()));
                        settledMonths.put(new MonthKey(code, month, bots), union);
                        sketches.add(union);
                    }
                    return UniqueVisitors.estimate(sketches);
                });
    }

    /** Whether every pod has written its last sketches of this month: it ended before yesterday. */
    private static boolean settled(LocalDate month, LocalDate today) {
        return month.withDayOfMonth(month.lengthOfMonth()).isBefore(today.minusDays(1));
    }

    /**
     * The {@code limit} labels with the most visits of every dimension, most first (ties by label); bots left out
     * unless asked. Exact, and read mostly from memory: see {@link TopLabels}.
     */
    Mono<Map<Dimension, List<LabelCount>>> top(String code, LocalDate from, LocalDate to, boolean bots, int limit) {
        return topLabels.top(code, from, to, bots, limit);
    }

    /** Visits of a code, newest id first, after the {@code cursor} id when one is given. */
    Flux<Visit> visits(String code, byte[] cursor, int limit) {
        var spec = db.sql("SELECT id, code, visited_at, client_id, ip, user_agent, referer, country, city, browser, "
                        + "browser_version, os, device_class, bot, redirect_url FROM visit WHERE code = :code"
                        + (cursor == null ? "" : " AND id < :cursor") + " ORDER BY id DESC LIMIT " + limit)
                .bind("code", code);
        if (cursor != null) {
            spec = spec.bind("cursor", cursor);
        }
        return spec.map(VisitQueries::toVisit).all();
    }

    private static Visit toVisit(Readable row) {
        return new Visit(
                bytes(row.get("id")),
                row.get("code", String.class),
                row.get("visited_at", LocalDateTime.class).toInstant(ZoneOffset.UTC),
                row.get("client_id", String.class),
                Visitor.read(row),
                row.get("redirect_url", String.class));
    }

    /** BINARY comes back as byte[] or ByteBuffer depending on the driver. */
    public static byte[] bytes(Object value) {
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
    public static boolean bool(Object value) {
        return value instanceof Boolean b ? b : value instanceof Number n && n.intValue() != 0;
    }

    static long number(Readable row, String name) {
        Object value = row.get(name);
        return value == null ? 0 : ((Number) value).longValue();
    }
}
