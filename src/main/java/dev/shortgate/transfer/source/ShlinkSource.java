package dev.shortgate.transfer.source;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.transfer.ImportRecord;
import dev.shortgate.transfer.ImportSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Any Shlink server, through its REST API v3 ({@code GET /rest/v3/short-urls}, oldest first so that links made
 * during the import land on later pages; {@code GET /rest/v3/short-urls/{code}/visits} for visits), with its
 * {@code X-Api-Key}. The checkpoint is a page number: a resumed import reads that page again, and its links already
 * written come back unchanged.
 */
final class ShlinkSource implements ImportSource {

    private final SourceHttp http;
    private final String base;
    private final String apiKey;
    private final int pageSize;

    ShlinkSource(SourceHttp http, String base, String apiKey, int pageSize) {
        this.http = http;
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.apiKey = apiKey;
        this.pageSize = pageSize;
    }

    @Override
    public Flux<ImportRecord> read(String checkpoint) {
        int first = checkpoint == null ? 1 : Integer.parseInt(checkpoint);
        return page(first)
                .expand(page -> page.number < page.pages ? page(page.number + 1) : Mono.empty(), 1)
                .concatMapIterable(page -> page.records);
    }

    @Override
    public Mono<Long> total() {
        return http.get(base + "/rest/v3/short-urls?page=1&itemsPerPage=1", this::key)
                .mapNotNull(json -> SourceHttp.number(json.path("shortUrls").path("pagination"), "totalItems"));
    }

    @Override
    public Flux<ImportRecord.Visit> visits(ImportRecord record) {
        String path =
                base + "/rest/v3/short-urls/" + URLEncoder.encode(record.code(), StandardCharsets.UTF_8) + "/visits";
        return visitPage(path, 1)
                .expand(page -> page.number < page.pages ? visitPage(path, page.number + 1) : Mono.empty(), 1)
                .concatMapIterable(page -> page.visits);
    }

    private void key(org.springframework.http.HttpHeaders headers) {
        if (apiKey != null) {
            headers.set("X-Api-Key", apiKey);
        }
        headers.set("Accept", "application/json");
    }

    private record Page(int number, int pages, List<ImportRecord> records) {}

    private record VisitPage(int number, int pages, List<ImportRecord.Visit> visits) {}

    private Mono<Page> page(int number) {
        return http.get(
                        base + "/rest/v3/short-urls?orderBy=dateCreated-ASC&page=" + number + "&itemsPerPage="
                                + pageSize,
                        this::key)
                .map(json -> {
                    JsonNode shortUrls = json.path("shortUrls");
                    List<ImportRecord> records = new ArrayList<>();
                    for (JsonNode item : shortUrls.path("data")) {
                        records.add(toRecord(item, number));
                    }
                    Long pages = SourceHttp.number(shortUrls.path("pagination"), "pagesCount");
                    return new Page(number, pages == null ? number : pages.intValue(), records);
                });
    }

    private Mono<VisitPage> visitPage(String path, int number) {
        return http.get(path + "?page=" + number + "&itemsPerPage=" + Math.max(pageSize, 100), this::key)
                .map(json -> {
                    JsonNode visits = json.path("visits");
                    List<ImportRecord.Visit> list = new ArrayList<>();
                    for (JsonNode visit : visits.path("data")) {
                        JsonNode location = visit.path("visitLocation");
                        list.add(new ImportRecord.Visit(
                                time(SourceHttp.text(visit, "date")),
                                SourceHttp.text(visit, "referer"),
                                SourceHttp.text(visit, "userAgent"),
                                location.isObject() ? SourceHttp.text(location, "countryCode") : null,
                                location.isObject() ? SourceHttp.text(location, "cityName") : null,
                                visit.path("potentialBot").asBoolean(false)));
                    }
                    Long pages = SourceHttp.number(visits.path("pagination"), "pagesCount");
                    return new VisitPage(number, pages == null ? number : pages.intValue(), list);
                });
    }

    private static ImportRecord toRecord(JsonNode item, int page) {
        String code = SourceHttp.text(item, "shortCode");
        String ref = "short URL " + code;
        try {
            List<String> tags = new ArrayList<>();
            item.path("tags").forEach(tag -> tags.add(tag.asString()));
            JsonNode meta = item.path("meta");
            return new ImportRecord(
                    ref,
                    Integer.toString(page),
                    code,
                    SourceHttp.text(item, "longUrl"),
                    tags,
                    SourceHttp.text(item, "title"),
                    time(SourceHttp.text(item, "dateCreated")),
                    time(SourceHttp.text(meta, "validUntil")),
                    SourceHttp.number(meta, "maxVisits"),
                    item.path("crawlable").asBoolean(false),
                    item.path("forwardQuery").asBoolean(true),
                    SourceHttp.text(item, "domain"),
                    null,
                    null,
                    null,
                    false,
                    null);
        } catch (RuntimeException e) {
            return ImportRecord.unreadable(ref, Integer.toString(page), "Unreadable short URL: " + e.getMessage());
        }
    }

    static Instant time(String text) {
        return text == null ? null : OffsetDateTime.parse(text).toInstant();
    }
}
