package dev.shortgate.visit.stats;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.visit.Dimension;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * The stats API's top lists, for {@link VisitQueries#top}: the labels with the most visits of each
 * {@link Dimension} over a range of UTC days, summed from {@code visit_dim_stats} and its monthly roll-up
 * {@code visit_dim_month}, where one {@link Dimension#AGENT} row counts a browser, an OS and a device class at once.
 * The sums of a range's settled days are kept in memory (about {@link #SETTLED_SUM_BYTES}), each with the
 * {@code link_stats} totals of the same days, and used again only while those totals are unchanged.
 */
final class TopLabels {

    /** About how many bytes of settled days' per-label sums are kept (one entry per link, range and bots flag). */
    static final long SETTLED_SUM_BYTES = 32L << 20;

    private final DatabaseClient db;
    private final Clock clock;
    private final Cache<SumKey, Sums> settledSums;

    TopLabels(DatabaseClient db, Clock clock, Ticker ticker) {
        this.db = db;
        this.clock = clock;
        this.settledSums = Caffeine.newBuilder()
                .maximumWeight(SETTLED_SUM_BYTES)
                .weigher((SumKey key, Sums sums) -> sums.weight())
                .expireAfterWrite(VisitQueries.SETTLED_MONTH_TTL)
                .ticker(ticker)
                .build();
    }

    /**
     * The {@code limit} labels with the most visits of every dimension, most first (ties by label); bots left out
     * unless asked. The settled days of the range (those before yesterday) are summed per label once and kept in
     * memory with the {@code link_stats} totals of the same days, read in the same statement; a later request uses
     * them only while those totals are unchanged. Every count flush adds to {@code link_stats} and to the dimension
     * tables in one transaction, and only adds, so equal totals mean equal sums: the answer stays exact. Yesterday
     * and today are read on every request.
     */
    Mono<Map<Dimension, List<VisitQueries.LabelCount>>> top(
            String code, LocalDate from, LocalDate to, boolean bots, int limit) {
        LocalDate lastSettled = LocalDate.now(clock).minusDays(2);
        if (lastSettled.isBefore(from)) {
            return sums(code, from, to, bots, false).map(sums -> rank(sums.labels(), limit));
        }
        LocalDate settledTo = to.isBefore(lastSettled) ? to : lastSettled;
        SumKey key = new SumKey(code, from, settledTo, bots);
        Mono<Map<LabelKey, Long>> settled = Mono.defer(() -> {
            Sums cached = settledSums.getIfPresent(key);
            Mono<Sums> fresh = sums(code, from, settledTo, bots, true).doOnNext(sums -> settledSums.put(key, sums));
            return (cached == null
                            ? fresh
                            : totals(code, from, settledTo)
                                    .flatMap(totals -> totals.equals(cached.totals()) ? Mono.just(cached) : fresh))
                    .map(Sums::labels);
        });
        Mono<Map<LabelKey, Long>> recent = settledTo.isBefore(to)
                ? sums(code, settledTo.plusDays(1), to, bots, false).map(Sums::labels)
                : Mono.just(Map.of());
        return Mono.zip(settled, recent).map(both -> {
            Map<LabelKey, Long> all = new HashMap<>(both.getT1());
            both.getT2().forEach((label, n) -> all.merge(label, n, Long::sum));
            return rank(all, limit);
        });
    }

    /** Visits (bots included) and bot visits of a link over some days, from {@code link_stats}. */
    private record Totals(long visits, long botVisits) {}

    private record LabelKey(int dim, String label) {}

    /** Visits per dimension and label over some days, and the {@code link_stats} totals of the same snapshot. */
    private record Sums(Map<LabelKey, Long> labels, Totals totals) {
        int weight() {
            return 64 + labels.size() * 96;
        }
    }

    private record SumKey(String code, LocalDate from, LocalDate to, boolean bots) {}

    /**
     * Visits per dimension and label over {@code [from, to]}: whole months from {@code visit_dim_month}, the days of
     * the months the range cuts into from {@code visit_dim_stats} (both keyed by link and date first, so only the rows
     * asked for). With {@code totals}, the same statement also reads the days' {@code link_stats} totals.
     */
    private Mono<Sums> sums(String code, LocalDate from, LocalDate to, boolean bots, boolean totals) {
        MonthSplit split = MonthSplit.of(from, to);
        String n = (bots ? "visits" : "visits - bot_visits") + " AS n";
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < split.days().size(); i++) {
            parts.add("SELECT dim, label, " + n + " FROM visit_dim_stats WHERE code = :code" + i
                    + " AND stat_date >= :from" + i + " AND stat_date <= :to" + i);
        }
        split.months()
                .ifPresent(m -> parts.add("SELECT dim, label, " + n + " FROM visit_dim_month WHERE code = "
                        + ":codem AND stat_month >= :fromm AND stat_month <= :tom"));
        String sql =
                "SELECT dim, label, SUM(n) AS n FROM (" + String.join(" UNION ALL ", parts) + ") u GROUP BY dim, label";
        if (totals) { // dim 0: not a dimension; the totals, read in the same snapshot as the labels
            sql += " UNION ALL SELECT 0, 'visits', COALESCE(SUM(visits), 0) FROM link_stats WHERE code = :codet "
                    + "AND stat_date >= :fromt AND stat_date <= :tot UNION ALL SELECT 0, 'bots', "
                    + "COALESCE(SUM(bot_visits), 0) FROM link_stats WHERE code = :codet AND stat_date >= :fromt "
                    + "AND stat_date <= :tot";
        }
        var spec = db.sql(sql);
        for (int i = 0; i < split.days().size(); i++) {
            spec = spec.bind("code" + i, code)
                    .bind("from" + i, split.days().get(i).from())
                    .bind("to" + i, split.days().get(i).to());
        }
        if (split.months().isPresent()) {
            spec = spec.bind("codem", code)
                    .bind("fromm", split.months().get().from())
                    .bind("tom", split.months().get().to());
        }
        if (totals) {
            spec = spec.bind("codet", code).bind("fromt", from).bind("tot", to);
        }
        return spec.map(row -> Map.entry(
                        new LabelKey(((Number) row.get("dim")).intValue(), row.get("label", String.class)),
                        VisitQueries.number(row, "n")))
                .all()
                .collectList()
                .map(rows -> {
                    Map<LabelKey, Long> labels = new HashMap<>();
                    long visits = 0;
                    long botVisits = 0;
                    for (Map.Entry<LabelKey, Long> row : rows) {
                        if (row.getKey().dim() == Dimension.AGENT.id) {
                            addAgent(labels, row.getKey().label(), row.getValue());
                        } else if (row.getKey().dim() != 0) {
                            labels.merge(row.getKey(), row.getValue(), Long::sum);
                        } else if (row.getKey().label().equals("visits")) {
                            visits = row.getValue();
                        } else {
                            botVisits = row.getValue();
                        }
                    }
                    return new Sums(labels, new Totals(visits, botVisits));
                });
    }

    /**
     * Counts an {@link Dimension#AGENT} row's visits under each of its browser, OS and device class (a label that
     * is not one, which no pod writes, is left out).
     */
    private static void addAgent(Map<LabelKey, Long> labels, String agent, long n) {
        String[] parts = Dimension.agentParts(agent);
        if (parts == null) {
            return;
        }
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] != null) {
                labels.merge(new LabelKey(Dimension.AGENT_PARTS.get(i).id, parts[i]), n, Long::sum);
            }
        }
    }

    private Mono<Totals> totals(String code, LocalDate from, LocalDate to) {
        return db.sql("SELECT COALESCE(SUM(visits), 0) AS visits, COALESCE(SUM(bot_visits), 0) AS bot_visits "
                        + "FROM link_stats WHERE code = :code AND stat_date >= :from AND stat_date <= :to")
                .bind("code", code)
                .bind("from", from)
                .bind("to", to)
                .map(row -> new Totals(VisitQueries.number(row, "visits"), VisitQueries.number(row, "bot_visits")))
                .one();
    }

    /**
     * Each dimension's {@code limit} labels with most visits (more than none), most first, ties by label in the
     * order of the label column's binary collation (UTF-8 bytes).
     */
    private static Map<Dimension, List<VisitQueries.LabelCount>> rank(Map<LabelKey, Long> sums, int limit) {
        Map<Dimension, List<VisitQueries.LabelCount>> top = new EnumMap<>(Dimension.class);
        for (Dimension dimension : Dimension.values()) {
            List<VisitQueries.LabelCount> labels = new ArrayList<>();
            sums.forEach((key, n) -> {
                if (key.dim() == dimension.id && n > 0) {
                    labels.add(new VisitQueries.LabelCount(key.label(), n));
                }
            });
            if (labels.isEmpty()) {
                continue;
            }
            labels.sort(Comparator.comparingLong(VisitQueries.LabelCount::visits)
                    .reversed()
                    .thenComparing(l -> l.label().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned));
            top.put(dimension, List.copyOf(labels.subList(0, Math.min(limit, labels.size()))));
        }
        return top;
    }
}
