package dev.shortgate.transfer.source;

import java.util.ArrayList;
import java.util.List;

import dev.shortgate.transfer.ImportRecord;
import dev.shortgate.transfer.ImportSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * A Kutt server, through its API v2 ({@code GET /api/v2/links?limit=N&skip=S} with {@code X-API-KEY}): address,
 * target, description (as the title), expiry ({@code expire_in}), creation date and {@code visit_count}, a total
 * that seeds the aggregate. The checkpoint is the offset ({@code skip}).
 */
final class KuttSource implements ImportSource {

    private final SourceHttp http;
    private final String base;
    private final String apiKey;
    private final int pageSize;

    KuttSource(SourceHttp http, String base, String apiKey, int pageSize) {
        this.http = http;
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.apiKey = apiKey;
        this.pageSize = pageSize;
    }

    @Override
    public Flux<ImportRecord> read(String checkpoint) {
        int first = checkpoint == null ? 0 : Integer.parseInt(checkpoint);
        return page(first)
                .expand(
                        page -> page.skip + page.records.size() >= page.total || page.records.isEmpty()
                                ? Mono.empty()
                                : page(page.skip + page.records.size()),
                        1)
                .concatMapIterable(page -> page.records);
    }

    @Override
    public Mono<Long> total() {
        return http.get(base + "/api/v2/links?limit=1&skip=0", this::key)
                .mapNotNull(json -> SourceHttp.number(json, "total"));
    }

    @Override
    public boolean clicksAreTotals() {
        return true;
    }

    private void key(org.springframework.http.HttpHeaders headers) {
        if (apiKey != null) {
            headers.set("X-API-KEY", apiKey);
        }
    }

    private record Page(int skip, long total, List<ImportRecord> records) {}

    private Mono<Page> page(int skip) {
        return http.get(base + "/api/v2/links?limit=" + pageSize + "&skip=" + skip, this::key)
                .map(json -> {
                    List<ImportRecord> records = new ArrayList<>();
                    for (JsonNode link : json.path("data")) {
                        records.add(toRecord(link, skip));
                    }
                    Long total = SourceHttp.number(json, "total");
                    return new Page(skip, total == null ? skip + records.size() : total, records);
                });
    }

    private static ImportRecord toRecord(JsonNode link, int skip) {
        String address = SourceHttp.text(link, "address");
        String ref = "link " + (SourceHttp.text(link, "id") == null ? address : SourceHttp.text(link, "id"));
        try {
            return new ImportRecord(
                    ref,
                    Integer.toString(skip),
                    address,
                    SourceHttp.text(link, "target"),
                    List.of(),
                    SourceHttp.text(link, "description"),
                    ShlinkSource.time(SourceHttp.text(link, "created_at")),
                    ShlinkSource.time(SourceHttp.text(link, "expire_in")),
                    null,
                    false,
                    false,
                    null,
                    SourceHttp.number(link, "visit_count"),
                    null,
                    null,
                    false,
                    null);
        } catch (RuntimeException e) {
            return ImportRecord.unreadable(ref, Integer.toString(skip), "Unreadable link: " + e.getMessage());
        }
    }
}
