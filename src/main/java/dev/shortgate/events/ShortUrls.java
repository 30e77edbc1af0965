package dev.shortgate.events;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.link.store.LinkRows;
import dev.shortgate.link.store.LinkTags;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.RawValue;

/**
 * Shlink's short URL ({@code ShortUrlDataTransformer}) for the updates: the link, its Shlink fields, tags and visit
 * totals. A visit's update reuses the one read for its code for {@code short-url-cache-ttl} (Caffeine, bounded,
 * coalesced), so a flood of visits to one code costs one read per period, never one per visit, and the codes of a
 * batch of visits that are not cached are read together, one statement per table; the totals trail by
 * that much, as Shlink's own list trails by a counts flush. A link of a domain other than the default one shows its
 * bare code, its domain's host in {@code domain} and a short URL on that host, as Shlink's own API does
 * ({@code shlink/ShlinkJson}); the default domain's {@code domain} is {@code null}.
 */
final class ShortUrls {

    /** Shlink's date format: ISO-8601 with a numeric offset. */
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final LinkRepository links;
    private final DatabaseClient db;
    private final String baseUrl;
    private final String scheme;
    private final Function<String, String> hostOf;
    private final AsyncCache<String, Shown> cache;
    private final LinkTags tags;

    /**
     * @param hostOf the host of the domain a stored key belongs to, {@code null} for a key of the default domain
     */
    ShortUrls(
            LinkRepository links,
            LinkTags tags,
            DatabaseClient db,
            String baseUrl,
            Duration ttl,
            Function<String, String> hostOf) {
        this.links = links;
        this.tags = tags;
        this.db = db;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl : baseUrl + "/";
        this.scheme = baseUrl.substring(0, baseUrl.indexOf(':'));
        this.hostOf = hostOf;
        this.cache =
                Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(ttl).buildAsync();
    }

    /**
     * A short URL as a visit's update shows it: its fields, and their JSON, written once per read (the first update
     * that shows it writes it; the others, for {@code short-url-cache-ttl}, reuse the text).
     */
    static final class Shown {

        static final Shown GONE = new Shown(Map.of());

        private final Map<String, Object> fields;
        /** Written by the first reader; volatile so another thread sees the text whole or not at all. */
        private volatile RawValue json;

        Shown(Map<String, Object> fields) {
            this.fields = fields;
        }

        Object longUrl() {
            return fields.get("longUrl");
        }

        /** The fields as JSON, to be embedded as they are; written on the first call (a race writes it twice). */
        RawValue json(JsonMapper mapper) {
            RawValue written = json;
            if (written == null) {
                written = new RawValue(mapper.writeValueAsString(fields));
                json = written;
            }
            return written;
        }
    }

    /**
     * The short URLs of these codes as visits' updates show them, by code; a code whose link is gone is left out.
     * Codes read within {@code short-url-cache-ttl} come from the cache; the rest are read together, one statement
     * per table for all of them (a batch of visits to random codes costs four statements, not four per visit).
     */
    Mono<Map<String, Shown>> ofCodes(Collection<String> codes) {
        if (codes.isEmpty()) {
            return Mono.just(Map.of());
        }
        return Mono.fromFuture(
                        () -> cache.getAll(
                                codes, (missing, executor) -> readAll(missing).toFuture()),
                        true)
                .map(found -> {
                    Map<String, Shown> live = new HashMap<>(found.size() * 2);
                    found.forEach((code, shortUrl) -> {
                        if (shortUrl != Shown.GONE) {
                            live.put(code, shortUrl);
                        }
                    });
                    return live;
                });
    }

    /** The host of the domain a stored key belongs to; {@code null} for the default domain, as Shlink shows it. */
    String domainOf(String key) {
        return DomainCodes.domainId(key) == Domains.DEFAULT_ID ? null : hostOf.apply(key);
    }

    /** The short URL visitors type for a stored key: on the base URL, or on its own domain's host. */
    String urlOf(String key) {
        String host = domainOf(key);
        String code = DomainCodes.code(key);
        return host == null ? baseUrl + code : scheme + "://" + host + "/" + code;
    }

    /** A link just created: nothing has been counted or tagged through Shlink yet that a read would show. */
    Map<String, Object> ofNewLink(Link link) {
        return shape(link, null, false, null, 0, 0, List.of());
    }

    /** Reads these codes' short URLs; a code whose link is gone (or never was) maps to {@link Shown#GONE}. */
    private Mono<Map<String, Shown>> readAll(Set<? extends String> codes) {
        List<String> keys = List.copyOf(codes);
        return Mono.zip(links.findByCodes(keys), meta(keys), totals(keys), tags.of(keys))
                .map(parts -> {
                    Map<String, Shown> read = new HashMap<>(keys.size() * 2);
                    for (String code : keys) {
                        Link link = parts.getT1().get(code);
                        if (link == null || link.deletedAt() != null) {
                            read.put(code, Shown.GONE);
                            continue;
                        }
                        Meta meta = parts.getT2().getOrDefault(code, Meta.NONE);
                        long[] totals = parts.getT3().getOrDefault(code, NO_VISITS);
                        read.put(
                                code,
                                new Shown(shape(
                                        link,
                                        meta.title,
                                        meta.crawlable,
                                        meta.validSince,
                                        totals[0],
                                        totals[1],
                                        parts.getT4().getOrDefault(code, List.of()))));
                    }
                    return read;
                });
    }

    private static final long[] NO_VISITS = {0, 0};

    private record Meta(String title, boolean crawlable, Instant validSince) {
        static final Meta NONE = new Meta(null, false, null);
    }

    private Mono<Map<String, Meta>> meta(List<String> codes) {
        return db.sql("SELECT code, title, crawlable, valid_since FROM link_shlink_meta WHERE code IN (:codes)")
                .bind("codes", codes)
                .map(row -> {
                    Object crawlable = row.get("crawlable");
                    return Map.entry(
                            row.get("code", String.class),
                            new Meta(
                                    row.get("title", String.class),
                                    crawlable != null && LinkRows.bool(crawlable),
                                    LinkRows.fromDb(row.get("valid_since", LocalDateTime.class))));
                })
                .all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue);
    }

    private Mono<Map<String, long[]>> totals(List<String> codes) {
        return db.sql("SELECT code, COALESCE(SUM(visits), 0) AS visits, COALESCE(SUM(bot_visits), 0) AS bots "
                        + "FROM link_stats WHERE code IN (:codes) GROUP BY code")
                .bind("codes", codes)
                .map(row -> Map.entry(
                        row.get("code", String.class),
                        new long[] {((Number) row.get("visits")).longValue(), ((Number) row.get("bots")).longValue()}))
                .all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue);
    }

    private Map<String, Object> shape(
            Link link, String title, boolean crawlable, Instant validSince, long visits, long bots, List<String> tags) {
        Map<String, Object> visitsSummary = new LinkedHashMap<>();
        visitsSummary.put("total", visits);
        visitsSummary.put("nonBots", visits - bots);
        visitsSummary.put("bots", bots);
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("validSince", date(validSince));
        meta.put("validUntil", date(link.expiresAt()));
        meta.put("maxVisits", link.maxVisits());
        Map<String, Object> shortUrl = new LinkedHashMap<>();
        shortUrl.put("shortCode", DomainCodes.code(link.code()));
        shortUrl.put("shortUrl", urlOf(link.code()));
        shortUrl.put("longUrl", link.url());
        shortUrl.put("dateCreated", date(link.createdAt()));
        shortUrl.put("visitsSummary", visitsSummary);
        shortUrl.put("tags", tags);
        shortUrl.put("meta", meta);
        shortUrl.put("domain", domainOf(link.code()));
        shortUrl.put("title", title);
        shortUrl.put("crawlable", crawlable);
        shortUrl.put("forwardQuery", link.forwardQuery());
        shortUrl.put(
                "hasRedirectRules",
                link.rules() != null && !link.rules().rules().isEmpty());
        return shortUrl;
    }

    static String date(Instant instant) {
        return instant == null ? null : DATE.format(instant);
    }
}
