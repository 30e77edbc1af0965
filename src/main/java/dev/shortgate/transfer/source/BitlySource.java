package dev.shortgate.transfer.source;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.transfer.ImportRecord;
import dev.shortgate.transfer.ImportSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Bitly, through its API v4 ({@code GET /v4/groups/{group_guid}/bitlinks?size=N}, then {@code search_after} from
 * each page's {@code pagination}, with {@code Authorization: Bearer}): the back-half (the id's last segment), long
 * URL, title, tags and creation date. The list has no click counts, so no aggregate is seeded. {@code --url} is the
 * group's address, {@code https://api-ssl.bitly.com/v4/groups/{group_guid}}. The checkpoint is the
 * {@code search_after} token of the page (empty for the first).
 */
final class BitlySource implements ImportSource {

    private static final DateTimeFormatter CREATED = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");

    private final SourceHttp http;
    private final String group;
    private final String token;
    private final int pageSize;

    BitlySource(SourceHttp http, String group, String token, int pageSize) {
        this.http = http;
        this.group = group.endsWith("/") ? group.substring(0, group.length() - 1) : group;
        this.token = token;
        this.pageSize = Math.min(pageSize, 100);
    }

    @Override
    public Flux<ImportRecord> read(String checkpoint) {
        String first = checkpoint == null ? "" : checkpoint;
        return page(first)
                .expand(page -> page.next == null || page.next.isEmpty() ? Mono.empty() : page(page.next), 1)
                .concatMapIterable(page -> page.records);
    }

    @Override
    public Mono<Long> total() {
        return http.get(group + "/bitlinks?size=1", this::key)
                .mapNotNull(json -> SourceHttp.number(json.path("pagination"), "total"));
    }

    private void key(org.springframework.http.HttpHeaders headers) {
        if (token != null) {
            headers.setBearerAuth(token);
        }
    }

    private record Page(List<ImportRecord> records, String next) {}

    private Mono<Page> page(String after) {
        String uri = group + "/bitlinks?size=" + pageSize
                + (after.isEmpty() ? "" : "&search_after=" + URLEncoder.encode(after, StandardCharsets.UTF_8));
        return http.get(uri, this::key).map(json -> {
            List<ImportRecord> records = new ArrayList<>();
            for (JsonNode link : json.path("links")) {
                records.add(toRecord(link, after));
            }
            JsonNode pagination = json.path("pagination");
            String next = SourceHttp.text(pagination, "search_after");
            if (next == null) { // older answers carry it only inside the next page's address
                next = searchAfter(SourceHttp.text(pagination, "next"));
            }
            return new Page(records, next);
        });
    }

    /** The {@code search_after} parameter of a next-page address, or {@code null}. */
    static String searchAfter(String next) {
        if (next == null) {
            return null;
        }
        for (String parameter : java.net.URI.create(next).getRawQuery().split("&")) {
            if (parameter.startsWith("search_after=")) {
                return java.net.URLDecoder.decode(
                        parameter.substring("search_after=".length()), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static ImportRecord toRecord(JsonNode link, String page) {
        String id = SourceHttp.text(link, "id");
        String ref = "bitlink " + id;
        try {
            List<String> tags = new ArrayList<>();
            link.path("tags").forEach(tag -> tags.add(tag.asString()));
            String created = SourceHttp.text(link, "created_at");
            return new ImportRecord(
                    ref,
                    page,
                    SourceHttp.lastSegment(id),
                    SourceHttp.text(link, "long_url"),
                    tags,
                    SourceHttp.text(link, "title"),
                    created == null ? null : created(created),
                    null,
                    null,
                    false,
                    false,
                    null,
                    null,
                    null,
                    null,
                    false,
                    null);
        } catch (RuntimeException e) {
            return ImportRecord.unreadable(ref, page, "Unreadable bitlink: " + e.getMessage());
        }
    }

    /** Bitly writes {@code 2020-02-04T13:41:54+0000}; ISO-8601 with a colon is read too. */
    private static java.time.Instant created(String text) {
        try {
            return OffsetDateTime.parse(text, CREATED).toInstant();
        } catch (RuntimeException e) {
            return OffsetDateTime.parse(text).toInstant();
        }
    }
}
