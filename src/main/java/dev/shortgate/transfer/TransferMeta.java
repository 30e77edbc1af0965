package dev.shortgate.transfer;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.shortgate.link.store.LinkRows;
import dev.shortgate.system.database.MultiRow;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What an import writes beside a batch of links, each with one multi-row statement and never twice: tags (the tag
 * rows, then the links' tags), titles and Shlink's crawlable flag ({@code link_shlink_meta}), click totals (one
 * {@code link_stats} row on the link's creation day) and imported visits (raw rows, and their counts per day and per
 * country, and per month and country for the stats of whole months).
 * Every statement is an {@code INSERT IGNORE} on the row's key, or, for the monthly roll-up, sets a month to the sum
 * of its days, so a re-run or a resumed batch adds nothing.
 */
@Repository
class TransferMeta {

    /** Per-dimension aggregate of countries (see V10__visit_aggregates.sql). */
    private static final int DIM_COUNTRY = 1;

    private final DatabaseClient db;
    private final MultiRow multiRow;

    TransferMeta(DatabaseClient db, MultiRow multiRow) {
        this.db = db;
        this.multiRow = multiRow;
    }

    /** A link as written, and its record from the source. */
    record Written(String code, ImportRecord record, Instant createdAt) {}

    Mono<Void> write(List<Written> links) {
        if (links.isEmpty()) {
            return Mono.empty();
        }
        return tags(links).then(meta(links)).then(totals(links));
    }

    private Mono<Void> tags(List<Written> links) {
        // In name order: batches written at once then take the tag rows' locks in the same order, never crosswise
        Set<String> names = new java.util.TreeSet<>();
        links.forEach(link -> names.addAll(link.record().tags()));
        if (names.isEmpty()) {
            return Mono.empty();
        }
        List<String> list = new ArrayList<>(names);
        return multiRow.statement(
                        "INSERT IGNORE INTO tag (name) VALUES ",
                        list.stream().map(name -> new Object[] {name}).toList(),
                        "")
                .fetch()
                .rowsUpdated()
                .then(db.sql("SELECT id, name FROM tag WHERE name IN (:names)")
                        .bind("names", list)
                        .map(row -> Map.entry(row.get("name", String.class), ((Number) row.get("id")).longValue()))
                        .all()
                        .collectMap(Map.Entry::getKey, Map.Entry::getValue))
                .flatMap(ids -> {
                    List<Object[]> pairs = new ArrayList<>();
                    for (Written link : links) {
                        for (String tag : new LinkedHashSet<>(link.record().tags())) {
                            pairs.add(new Object[] {link.code(), ids.get(tag)});
                        }
                    }
                    return pairs.isEmpty()
                            ? Mono.just(0L)
                            : multiRow.statement("INSERT IGNORE INTO link_tag (code, tag_id) VALUES ", pairs, "")
                                    .fetch()
                                    .rowsUpdated();
                })
                .then();
    }

    private Mono<Void> meta(List<Written> links) {
        List<Written> titled = links.stream()
                .filter(link -> link.record().title() != null || link.record().crawlable())
                .toList();
        if (titled.isEmpty()) {
            return Mono.empty();
        }
        List<Object[]> rows = new ArrayList<>(titled.size());
        for (Written link : titled) {
            String title = link.record().title();
            rows.add(new Object[] {
                link.code(),
                title == null ? org.springframework.r2dbc.core.Parameter.empty(String.class) : cut(title, 512),
                link.record().crawlable()
            });
        }
        return multiRow.statement("INSERT IGNORE INTO link_shlink_meta (code, title, crawlable) VALUES ", rows, "")
                .fetch()
                .rowsUpdated()
                .then();
    }

    private Mono<Void> totals(List<Written> links) {
        List<Written> counted = links.stream()
                .filter(link -> link.record().clicks() != null && link.record().clicks() > 0)
                .toList();
        if (counted.isEmpty()) {
            return Mono.empty();
        }
        Map<String, Map<LocalDate, long[]>> days = new HashMap<>();
        for (Written link : counted) {
            days.put(
                    link.code(),
                    Map.of(day(link.createdAt()), new long[] {link.record().clicks(), 0}));
        }
        return stats(days);
    }

    /** Seeds how many click totals this batch wrote: the links that carry one. */
    static long seeded(List<Written> links) {
        return links.stream()
                .filter(link -> link.record().clicks() != null && link.record().clicks() > 0)
                .count();
    }

    /**
     * A link's imported visits: raw rows (a thousand per statement, with ids made from the visit, so a re-run
     * writes none twice), then their counts per day (visits and bot visits) and per country and day. Memory holds a
     * thousand visits and the counts, however many visits the link has. Emits how many visits it read.
     */
    Mono<Long> visits(String code, Flux<ImportRecord.Visit> visits) {
        Map<LocalDate, long[]> days = new HashMap<>();
        Map<List<Object>, long[]> countries = new HashMap<>();
        Map<String, Integer> seen = new HashMap<>();
        return visits.buffer(1000)
                .concatMap(chunk -> {
                    for (ImportRecord.Visit visit : chunk) {
                        LocalDate day = day(visit.at());
                        long[] counts = days.computeIfAbsent(day, d -> new long[2]);
                        counts[0]++;
                        counts[1] += visit.bot() ? 1 : 0;
                        if (visit.country() != null) {
                            long[] country = countries.computeIfAbsent(
                                    List.of(day, visit.country().toUpperCase(java.util.Locale.ROOT)), k -> new long[2]);
                            country[0]++;
                            country[1] += visit.bot() ? 1 : 0;
                        }
                    }
                    return raw(code, chunk, seen).thenReturn((long) chunk.size());
                })
                .reduce(0L, Long::sum)
                .flatMap(read -> read == 0
                        ? Mono.just(0L)
                        : stats(Map.of(code, days))
                                .then(dims(code, countries))
                                .then(months(code, countries))
                                .thenReturn(read));
    }

    private Mono<Void> dims(String code, Map<List<Object>, long[]> countries) {
        if (countries.isEmpty()) {
            return Mono.empty();
        }
        List<Object[]> rows = new ArrayList<>(countries.size());
        for (var entry : countries.entrySet()) {
            rows.add(new Object[] {
                code,
                entry.getKey().get(0),
                DIM_COUNTRY,
                entry.getKey().get(1),
                entry.getValue()[0],
                entry.getValue()[1]
            });
        }
        return multiRow.statement(
                        "INSERT IGNORE INTO visit_dim_stats (code, stat_date, dim, label, visits, bot_visits) VALUES ",
                        rows,
                        "")
                .fetch()
                .rowsUpdated()
                .then();
    }

    /**
     * The monthly roll-up ({@code visit_dim_month}, ADR 13) of the months the imported countries fall in, made again
     * from the link's day rows: a month row is the sum of its days, which a stats range over a whole month reads. It
     * is set, not added to, so a re-run changes nothing; its read takes shared locks on the day rows (InnoDB's
     * {@code INSERT … SELECT}), so a count flush adding to a day and its month at the same time lands either before
     * the sum or after it, never lost.
     */
    private Mono<Void> months(String code, Map<List<Object>, long[]> countries) {
        java.util.SortedSet<LocalDate> months = new java.util.TreeSet<>();
        countries.keySet().forEach(key -> months.add(((LocalDate) key.get(0)).withDayOfMonth(1)));
        return Flux.fromIterable(months)
                .concatMap(month -> db.sql("INSERT INTO visit_dim_month (code, stat_month, dim, label, visits, "
                                + "bot_visits) SELECT code, :month, dim, label, SUM(visits), SUM(bot_visits) "
                                + "FROM visit_dim_stats WHERE code = :code AND stat_date BETWEEN :month AND :last "
                                + "GROUP BY code, dim, label ON DUPLICATE KEY UPDATE visits = VALUES(visits), "
                                + "bot_visits = VALUES(bot_visits)")
                        .bind("code", code)
                        .bind("month", month)
                        .bind("last", month.withDayOfMonth(month.lengthOfMonth()))
                        .fetch()
                        .rowsUpdated())
                .then();
    }

    /**
     * Raw visit rows. An id is the visit's second (as every visit id starts, so retention finds it) and 8 bytes of
     * a hash of the link, the visit's time, agent and referer and how many such visits came before it: the same
     * visit imported again gets the same id.
     */
    private Mono<Void> raw(String code, List<ImportRecord.Visit> chunk, Map<String, Integer> seen) {
        List<Object[]> rows = new ArrayList<>(chunk.size());
        for (ImportRecord.Visit visit : chunk) {
            Instant at = visit.at() == null ? Instant.EPOCH : visit.at();
            String identity = code + '|' + at.toEpochMilli() + '|' + visit.userAgent() + '|' + visit.referer();
            int ordinal = seen.merge(identity, 1, Integer::sum);
            byte[] hash = sha256(identity + '|' + ordinal);
            byte[] id = new byte[12];
            int seconds = (int) at.getEpochSecond();
            id[0] = (byte) (seconds >>> 24);
            id[1] = (byte) (seconds >>> 16);
            id[2] = (byte) (seconds >>> 8);
            id[3] = (byte) seconds;
            System.arraycopy(hash, 0, id, 4, 8);
            rows.add(new Object[] {
                id,
                code,
                LinkRows.toDb(at),
                java.util.HexFormat.of().formatHex(sha256("import|" + visit.userAgent())),
                nullable(cut(visit.userAgent(), 4096)),
                nullable(cut(visit.referer(), 4096)),
                nullable(
                        visit.country() == null || visit.country().length() != 2
                                ? null
                                : visit.country().toUpperCase(java.util.Locale.ROOT)),
                nullable(cut(visit.city(), 128)),
                visit.bot()
            });
        }
        return multiRow.statement(
                        "INSERT IGNORE INTO visit (id, code, visited_at, client_id, user_agent, referer, country, city,"
                                + " bot) VALUES ",
                        rows,
                        "")
                .fetch()
                .rowsUpdated()
                .then();
    }

    private static Object nullable(String value) {
        return value == null ? org.springframework.r2dbc.core.Parameter.empty(String.class) : value;
    }

    private static byte[] sha256(String text) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Mono<Void> stats(Map<String, Map<LocalDate, long[]>> byCode) {
        List<Object[]> rows = new ArrayList<>();
        for (var link : byCode.entrySet()) {
            for (var day : link.getValue().entrySet()) {
                rows.add(new Object[] {link.getKey(), day.getKey(), day.getValue()[0], day.getValue()[1]});
            }
        }
        return rows.isEmpty()
                ? Mono.empty()
                : multiRow.statement(
                                "INSERT IGNORE INTO link_stats (code, stat_date, visits, bot_visits) VALUES ", rows, "")
                        .fetch()
                        .rowsUpdated()
                        .then();
    }

    private static LocalDate day(Instant at) {
        return LinkRows.toDb(at == null ? Instant.now() : at).toLocalDate();
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }
}
