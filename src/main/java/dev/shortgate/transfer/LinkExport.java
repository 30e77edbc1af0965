package dev.shortgate.transfer;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.link.store.LinkRows;
import dev.shortgate.system.database.LinkTables;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams every live link as CSV (the import format: Shlink's columns first, then Shortgate's, the last of which is
 * the link's redirect rules as stored JSON, imported back) or JSON lines (the same fields, rules as a JSON object), a
 * page
 * of {@code shortgate.transfer.export-page} links at a time: one keyed query by code for the links and their titles,
 * and one range query each for the page's tags and visit totals. Memory holds one page, whatever the table's size;
 * the client's demand paces the reads. A link of a domain other than the default one is exported under its bare code
 * with its domain's host in {@code domain} (empty for the default domain), as the import reads it back.
 */
@Component
class LinkExport {

    static final List<String> COLUMNS = List.of(
            "shortCode",
            "longUrl",
            "tags",
            "title",
            "domain",
            "createdAt",
            "validUntil",
            "maxVisits",
            "crawlable",
            "forwardQuery",
            "redirectStatus",
            "disabled",
            "visits",
            "rules");

    private final DatabaseClient db;
    private final LinkTables tables;
    private final JsonMapper json;
    private final Domains domains;
    private final int page;
    private final ObjectWriter lines;

    LinkExport(DatabaseClient db, LinkTables tables, JsonMapper json, Domains domains, TransferProperties properties) {
        this.db = db;
        this.tables = tables;
        this.json = json;
        this.lines = json.writer().withRootValueSeparator("\n");
        this.domains = domains;
        this.page = properties.exportPage();
    }

    /**
     * Which links: all when every field is {@code null}.
     *
     * @param domainId only the links of the domain with this id ({@link Domains#DEFAULT_ID} for the default one), or
     *                 {@code null} for every domain's
     */
    record Filter(String tag, Instant since, Instant until, Integer domainId) {

        Filter(String tag, Instant since, Instant until) {
            this(tag, since, until, null);
        }
    }

    /** The host a stored key's domain shows in the export: empty for the default domain. */
    private String domainOf(String key) {
        return DomainCodes.domainId(key) == Domains.DEFAULT_ID ? "" : domains.hostOf(key);
    }

    /** One exported link. */
    record Row(Link link, String title, boolean crawlable, List<String> tags, long visits, String rulesJson) {}

    /** The CSV header line. */
    static String header() {
        return String.join(",", COLUMNS) + "\n";
    }

    /**
     * One line a link, a page a string. The fields are written straight onto the page's builder ({@link #field}),
     * quoted exactly as commons-csv's {@code CSVFormat.DEFAULT} quotes them: its printer, which renders each value
     * through a synchronized, type-dispatching {@code print}, cost a fifth more CPU per link than the JSON lines
     * generator, whose output is twice as large. The output is byte for byte the printer's (LinkExportTest).
     */
    Flux<String> csv(Filter filter) {
        return Flux.just(header()).concatWith(pages(filter).map(rows -> {
            StringBuilder out = new StringBuilder(rows.size() * 160);
            for (Row row : rows) {
                Link link = row.link();
                field(out, DomainCodes.code(link.code()), true);
                field(out, link.url(), false);
                field(out, tags(row.tags()), false);
                field(out, row.title() == null ? "" : row.title(), false);
                field(out, domainOf(link.code()), false);
                field(out, link.createdAt().toString(), false);
                field(out, link.expiresAt() == null ? "" : link.expiresAt().toString(), false);
                field(out, link.maxVisits() == null ? "" : link.maxVisits().toString(), false);
                field(out, row.crawlable() ? "true" : "false", false);
                field(out, link.forwardQuery() ? "true" : "false", false);
                field(out, Integer.toString(link.redirectStatus()), false);
                field(out, link.disabled() ? "true" : "false", false);
                field(out, Long.toString(row.visits()), false);
                field(out, row.rulesJson() == null ? "" : row.rulesJson(), false);
                out.append('\n');
            }
            return out.toString();
        }));
    }

    private static String tags(List<String> tags) {
        return tags.isEmpty() ? "" : tags.size() == 1 ? tags.get(0) : String.join("|", tags);
    }

    /**
     * Appends one CSV field as {@code CSVFormat.DEFAULT} prints it (quote mode minimal, {@code "} doubled): a
     * delimiter first unless it starts the line; quoted when it contains a comma, a quote, CR or LF, starts with a
     * character up to {@code #}, ends with one up to a space, or is empty at the start of a line.
     */
    static void field(StringBuilder out, String value, boolean first) {
        if (!first) {
            out.append(',');
        }
        int length = value.length();
        if (length == 0) {
            if (first) {
                out.append("\"\"");
            }
            return;
        }
        boolean quote = value.charAt(0) <= '#' || value.charAt(length - 1) <= ' ';
        for (int i = 0; i < length && !quote; i++) {
            char c = value.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
            out.append(value);
            return;
        }
        out.append('"');
        int from = 0;
        for (int i = value.indexOf('"'); i >= 0; i = value.indexOf('"', i + 1)) {
            out.append(value, from, i + 1).append('"');
            from = i + 1;
        }
        out.append(value, from, length).append('"');
    }

    /**
     * One JSON object a line, written field by field with one generator a page, rather than a map built and serialised
     * for each row; the fields, their order and their values are as before.
     */
    Flux<String> jsonLines(Filter filter) {
        return pages(filter).map(rows -> {
            StringBuilder out = new StringBuilder(rows.size() * 400);
            try (JsonGenerator generator = lines.createGenerator(new Appender(out))) {
                for (Row row : rows) {
                    Link link = row.link();
                    String domain = domainOf(link.code());
                    generator.writeStartObject();
                    generator.writeStringProperty("shortCode", DomainCodes.code(link.code()));
                    generator.writeStringProperty("domain", domain.isEmpty() ? null : domain);
                    generator.writeStringProperty("longUrl", link.url());
                    generator.writeArrayPropertyStart("tags");
                    for (String tag : row.tags()) {
                        generator.writeString(tag);
                    }
                    generator.writeEndArray();
                    generator.writeStringProperty("title", row.title());
                    generator.writeStringProperty("createdAt", link.createdAt().toString());
                    generator.writeStringProperty(
                            "validUntil",
                            link.expiresAt() == null ? null : link.expiresAt().toString());
                    if (link.maxVisits() == null) {
                        generator.writeNullProperty("maxVisits");
                    } else {
                        generator.writeNumberProperty(
                                "maxVisits", link.maxVisits().longValue());
                    }
                    generator.writeBooleanProperty("crawlable", row.crawlable());
                    generator.writeBooleanProperty("forwardQuery", link.forwardQuery());
                    generator.writeNumberProperty("redirectStatus", link.redirectStatus());
                    generator.writeBooleanProperty("disabled", link.disabled());
                    generator.writeBooleanProperty("alias", link.alias());
                    generator.writeNumberProperty("visits", row.visits());
                    generator.writeName("rules");
                    if (row.rulesJson() == null) {
                        generator.writeNull();
                    } else {
                        generator.writeTree(json.readTree(row.rulesJson()));
                    }
                    generator.writeEndObject();
                }
            }
            return out.append('\n').toString();
        });
    }

    /** A writer onto a builder, without {@link java.io.StringWriter}'s locking. */
    private static final class Appender extends java.io.Writer {

        private final StringBuilder out;

        Appender(StringBuilder out) {
            this.out = out;
        }

        @Override
        public void write(char[] chars, int offset, int length) {
            out.append(chars, offset, length);
        }

        @Override
        public void write(String text, int offset, int length) {
            out.append(text, offset, offset + length);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    /**
     * The links in code order, a page at a time; each page's query starts after the previous page's last code. The
     * next page's links are read while this page's tags and visits are (and while it is written out): the queries
     * of a page no longer wait for the client to take the page before.
     */
    Flux<List<Row>> pages(Filter filter) {
        return page(filter, "")
                .expand(
                        found -> found.size() < page
                                ? Mono.empty()
                                : page(filter, ((Link) found.get(found.size() - 1)[0]).code()),
                        1)
                .filter(found -> !found.isEmpty())
                .concatMap(
                        found -> withTagsAndVisits(found).flatMap(rows -> domains.know(domainIds(
                                        rows.stream().map(row -> row.link().code())))
                                .thenReturn(rows)),
                        2);
    }

    /** The ids of the domains these keys belong to, which this pod must know to show their hosts. */
    private static java.util.Set<Integer> domainIds(java.util.stream.Stream<String> keys) {
        return keys.map(DomainCodes::domainId).collect(java.util.stream.Collectors.toSet());
    }

    /** The links of one page, each as its link, title, crawlable flag and rules. */
    private Mono<List<Object[]>> page(Filter filter, String after) {
        StringBuilder where = new StringBuilder("l.deleted_at IS NULL AND l.code > :after");
        if (filter.since() != null) {
            where.append(" AND l.created_at >= :since");
        }
        if (filter.until() != null) {
            where.append(" AND l.created_at < :until");
        }
        if (filter.domainId() != null) {
            // the domain is in the key (DomainCodes); the id is an int, so the literal cannot inject anything
            where.append(
                    filter.domainId() == Domains.DEFAULT_ID
                            ? " AND l.code NOT LIKE '%" + DomainCodes.SEPARATOR + "%'"
                            : " AND l.code LIKE '" + DomainCodes.prefix(filter.domainId()) + "%'");
        }
        if (filter.tag() != null) {
            where.append(" AND EXISTS (SELECT 1 FROM link_tag lt JOIN tag t ON t.id = lt.tag_id WHERE lt.code = l.code"
                    + " AND t.name = :tag)");
        }
        String sql = tables.eachTable(
                table -> "SELECT l.code, l.long_url, l.redirect_status, l.alias, l.created_at, l.expires_at, "
                        + "l.max_visits, l.disabled, l.forward_query, l.api_key_id, l.deleted_at, m.title, "
                        + "m.crawlable, r.rules_json FROM " + table
                        + " l LEFT JOIN link_shlink_meta m ON m.code = l.code "
                        + "LEFT JOIN link_rules r ON r.code = l.code WHERE "
                        + where + " ORDER BY l.code LIMIT " + page,
                "ORDER BY code LIMIT " + page);
        var spec = db.sql(sql).bind("after", after);
        if (filter.since() != null) {
            spec = spec.bind("since", LinkRows.toDb(filter.since()));
        }
        if (filter.until() != null) {
            spec = spec.bind("until", LinkRows.toDb(filter.until()));
        }
        if (filter.tag() != null) {
            spec = spec.bind("tag", filter.tag());
        }
        return spec.map(row -> new Object[] {
                    LinkRows.toLink(row),
                    row.get("title", String.class),
                    LinkRows.bool(row.get("crawlable")),
                    row.get("rules_json", String.class)
                })
                .all()
                .collectList();
    }

    private Mono<List<Row>> withTagsAndVisits(List<Object[]> found) {
        String first = ((Link) found.get(0)[0]).code();
        String last = ((Link) found.get(found.size() - 1)[0]).code();
        // The page's (code, tag id) pairs from link_tag's primary key, then the names of those tags: joined and
        // ordered by name, MariaDB read the page's tags tag by tag through the tag index instead. Each link's tags
        // are put in name order here, as utf8mb4_bin orders them (by code point).
        Mono<Map<String, List<String>>> tags = db.sql(
                        "SELECT code, tag_id FROM link_tag WHERE code >= :first AND code <= :last")
                .bind("first", first)
                .bind("last", last)
                .map(row -> Map.entry(row.get("code", String.class), ((Number) row.get("tag_id")).longValue()))
                .all()
                .collectList()
                .flatMap(pairs -> pairs.isEmpty() ? Mono.just(Map.<String, List<String>>of()) : named(pairs));
        Mono<Map<String, Long>> visits = db.sql("SELECT code, SUM(visits) AS visits FROM link_stats WHERE code >= "
                        + ":first AND code <= :last GROUP BY code")
                .bind("first", first)
                .bind("last", last)
                .map(row -> Map.entry(row.get("code", String.class), ((Number) row.get("visits")).longValue()))
                .all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue);
        return Mono.zip(tags, visits).map(both -> {
            List<Row> rows = new ArrayList<>(found.size());
            for (Object[] item : found) {
                Link link = (Link) item[0];
                rows.add(new Row(
                        link,
                        (String) item[1],
                        (Boolean) item[2],
                        both.getT1().getOrDefault(link.code(), List.of()),
                        both.getT2().getOrDefault(link.code(), 0L),
                        (String) item[3]));
            }
            return rows;
        });
    }

    /** Each code's tag names, in name order. */
    private Mono<Map<String, List<String>>> named(List<Map.Entry<String, Long>> pairs) {
        List<Long> ids = pairs.stream().map(Map.Entry::getValue).distinct().toList();
        return db.sql("SELECT id, name FROM tag WHERE id IN (:ids)")
                .bind("ids", ids)
                .map(row -> Map.entry(((Number) row.get("id")).longValue(), row.get("name", String.class)))
                .all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue)
                .map(names -> {
                    Map<String, List<String>> byCode = new HashMap<>();
                    for (Map.Entry<String, Long> pair : pairs) {
                        String name = names.get(pair.getValue());
                        if (name != null) {
                            byCode.computeIfAbsent(pair.getKey(), code -> new ArrayList<>(2))
                                    .add(name);
                        }
                    }
                    byCode.values().forEach(list -> list.sort(LinkExport::byCodePoint));
                    return byCode;
                });
    }

    /** Orders as MariaDB's utf8mb4_bin does: by code point, where String.compareTo goes by UTF-16 unit. */
    static int byCodePoint(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** Raw visits (those within {@code shortgate.visit.raw-retention}) as JSON lines, in id order, a page at a time. */
    Flux<String> visits(Instant since, Instant until) {
        return visitPage(new byte[0], since, until)
                .expand(
                        rows -> rows.size() < page
                                ? Mono.empty()
                                : visitPage((byte[]) rows.get(rows.size() - 1).get("_id"), since, until),
                        1)
                .filter(rows -> !rows.isEmpty())
                .concatMap(rows -> domains.know(domainIds(rows.stream().map(row -> (String) row.get("_key"))))
                        .thenReturn(rows))
                .map(rows -> {
                    StringBuilder out = new StringBuilder(rows.size() * 200);
                    for (Map<String, Object> row : rows) {
                        // a copy: the page's last row still gives the next page its start
                        Map<String, Object> item = new LinkedHashMap<>(row);
                        item.remove("_id");
                        String domain = domainOf((String) item.remove("_key"));
                        item.put("domain", domain.isEmpty() ? null : domain);
                        out.append(json.writeValueAsString(item)).append('\n');
                    }
                    return out.toString();
                });
    }

    private Mono<List<Map<String, Object>>> visitPage(byte[] after, Instant since, Instant until) {
        String sql = "SELECT id, code, visited_at, referer, user_agent, country, city, browser, os, device_class, bot "
                + "FROM visit WHERE id > :after" + (since == null ? "" : " AND visited_at >= :since")
                + (until == null ? "" : " AND visited_at < :until") + " ORDER BY id LIMIT " + page;
        var spec = db.sql(sql).bind("after", after);
        if (since != null) {
            spec = spec.bind("since", LinkRows.toDb(since));
        }
        if (until != null) {
            spec = spec.bind("until", LinkRows.toDb(until));
        }
        return spec.map(row -> {
                    Map<String, Object> item = new LinkedHashMap<>();
                    item.put("_id", toBytes(row.get("id")));
                    String key = row.get("code", String.class);
                    item.put("_key", key);
                    item.put("shortCode", DomainCodes.code(key));
                    item.put("domain", null); // its host once this pod surely knows it (pages)
                    item.put(
                            "date",
                            LinkRows.fromDb(row.get("visited_at", LocalDateTime.class))
                                    .toString());
                    item.put("referer", row.get("referer", String.class));
                    item.put("userAgent", row.get("user_agent", String.class));
                    item.put("countryCode", row.get("country", String.class));
                    item.put("cityName", row.get("city", String.class));
                    item.put("browser", row.get("browser", String.class));
                    item.put("os", row.get("os", String.class));
                    item.put("device", row.get("device_class", String.class));
                    item.put("potentialBot", LinkRows.bool(row.get("bot")));
                    return item;
                })
                .all()
                .collectList();
    }

    private static byte[] toBytes(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof java.nio.ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        }
        throw new IllegalStateException("unexpected id type " + value.getClass());
    }
}
