package dev.shortgate.transfer.source;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.transfer.ImportRecord;
import dev.shortgate.transfer.ImportSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * A YOURLS server, through its API ({@code yourls-api.php?action=stats&filter=last&limit=N&start=S&format=json},
 * authenticated with the passwordless {@code signature} token): keyword (the short URL's last segment), URL, title,
 * timestamp (server time, read as UTC) and clicks, a total that seeds the aggregate. YOURLS pages by offset, newest
 * first, so links made during the import shift later pages: those links come twice, the second time unchanged. The
 * checkpoint is the offset.
 */
final class YourlsSource implements ImportSource {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final SourceHttp http;
    private final String api;
    private final String signature;
    private final int pageSize;

    YourlsSource(SourceHttp http, String url, String signature, int pageSize) {
        this.http = http;
        this.api = url.endsWith(".php") ? url : (url.endsWith("/") ? url : url + "/") + "yourls-api.php";
        this.signature = signature;
        this.pageSize = pageSize;
    }

    @Override
    public Flux<ImportRecord> read(String checkpoint) {
        int first = checkpoint == null ? 0 : Integer.parseInt(checkpoint);
        return page(first)
                .expand(page -> page.records.size() < pageSize ? Mono.empty() : page(page.start + pageSize), 1)
                .concatMapIterable(page -> page.records);
    }

    @Override
    public Mono<Long> total() {
        return http.get(uri(0, 1), headers -> {})
                .mapNotNull(json -> SourceHttp.number(json.path("stats"), "total_links"));
    }

    @Override
    public boolean clicksAreTotals() {
        return true;
    }

    private record Page(int start, List<ImportRecord> records) {}

    private String uri(int start, int limit) {
        return api + "?action=stats&filter=last&format=json&limit=" + limit + "&start=" + start
                + (signature == null
                        ? ""
                        : "&signature="
                                + java.net.URLEncoder.encode(signature, java.nio.charset.StandardCharsets.UTF_8));
    }

    private Mono<Page> page(int start) {
        return http.get(uri(start, pageSize), headers -> {}).map(json -> {
            List<ImportRecord> records = new ArrayList<>();
            // "links": {"link_1": {...}, "link_2": {...}} (an empty page may come as [] or be missing)
            for (JsonNode link : json.path("links").values()) {
                records.add(toRecord(link, start));
            }
            return new Page(start, records);
        });
    }

    private static ImportRecord toRecord(JsonNode link, int start) {
        String keyword = SourceHttp.lastSegment(SourceHttp.text(link, "shorturl"));
        String ref = "keyword " + keyword;
        try {
            String timestamp = SourceHttp.text(link, "timestamp");
            return new ImportRecord(
                    ref,
                    Integer.toString(start),
                    keyword,
                    SourceHttp.text(link, "url"),
                    List.of(),
                    SourceHttp.text(link, "title"),
                    timestamp == null
                            ? null
                            : LocalDateTime.parse(timestamp, TIMESTAMP).toInstant(ZoneOffset.UTC),
                    null,
                    null,
                    false,
                    false,
                    null,
                    SourceHttp.number(link, "clicks"),
                    null,
                    null,
                    false,
                    null);
        } catch (RuntimeException e) {
            return ImportRecord.unreadable(ref, Integer.toString(start), "Unreadable link: " + e.getMessage());
        }
    }
}
