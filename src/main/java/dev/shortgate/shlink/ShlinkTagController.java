package dev.shortgate.shlink;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.shortgate.link.store.LinkTags;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Shlink's tags: list, stats, rename, delete. Renaming and deleting need the admin scope. */
@RestController
@RequestMapping(path = "/rest/v3/tags", produces = MediaType.APPLICATION_JSON_VALUE)
class ShlinkTagController {

    private final ShlinkTags tags;

    ShlinkTagController(ShlinkTags tags) {
        this.tags = tags;
    }

    @GetMapping
    Mono<Map<String, ShlinkJson.Page<String>>> list(ServerWebExchange exchange) {
        return stats(exchange)
                .map(page -> Map.of(
                        "tags",
                        new ShlinkJson.Page<>(
                                page.data().stream()
                                        .map(ShlinkJson.TagInfo::tag)
                                        .toList(),
                                page.pagination())));
    }

    @GetMapping("/stats")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.TagInfo>>> tagStats(ServerWebExchange exchange) {
        return stats(exchange).map(page -> Map.of("tags", page));
    }

    private Mono<ShlinkJson.Page<ShlinkJson.TagInfo>> stats(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
            Paging paging = Paging.of(params, Paging.MAX_ITEMS);
            String term = params.getFirst("searchTerm");
            Comparator<ShlinkJson.TagInfo> order = order(params.getFirst("orderBy"));
            Long owner = caller.scope() == ApiScope.CREATE ? (caller.keyId() == null ? -1L : caller.keyId()) : null;
            return tags.stats(owner, caller.domainId())
                    .filter(tag -> term == null
                            || term.isBlank()
                            || tag.tag()
                                    .toLowerCase(Locale.ROOT)
                                    .contains(term.trim().toLowerCase(Locale.ROOT)))
                    .map(tag -> new ShlinkJson.TagInfo(
                            tag.tag(), tag.shortUrls(), ShlinkJson.VisitsSummary.of(tag.visits(), tag.botVisits())))
                    .sort(order)
                    .collectList()
                    .map(paging::slice);
        });
    }

    @PutMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<Void>> rename(@RequestBody Map<String, Object> body, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            requireAdmin(exchange, "You are not allowed to rename tags");
            if (!(body.get("oldName") instanceof String oldName) || oldName.isBlank()) {
                throw ShlinkErrors.invalidData("oldName", "oldName must be a tag name.");
            }
            if (!(body.get("newName") instanceof String given)
                    || given.isBlank()
                    || given.trim().length() > LinkTags.MAX_LENGTH) {
                throw ShlinkErrors.invalidData(
                        "newName", "newName must be a tag name of at most " + LinkTags.MAX_LENGTH + " characters.");
            }
            String newName = given.trim();
            if (newName.equals(oldName)) {
                return tags.exists(oldName)
                        .flatMap(exists -> exists
                                ? Mono.just(ResponseEntity.noContent().<Void>build())
                                : Mono.error(ShlinkErrors.tagNotFound(oldName)));
            }
            return tags.rename(oldName, newName)
                    .switchIfEmpty(Mono.error(() -> ShlinkErrors.tagNotFound(oldName)))
                    .flatMap(renamed -> renamed
                            ? Mono.just(ResponseEntity.noContent().<Void>build())
                            : Mono.error(ShlinkErrors.tagConflict(oldName, newName)));
        });
    }

    @DeleteMapping
    Mono<ResponseEntity<Void>> delete(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            requireAdmin(exchange, "You are not allowed to delete tags");
            List<String> names = ShlinkParams.list(exchange.getRequest().getQueryParams(), "tags");
            return tags.delete(names).thenReturn(ResponseEntity.noContent().<Void>build());
        });
    }

    private static void requireAdmin(ServerWebExchange exchange, String detail) {
        if (!ApiPrincipal.of(exchange).isAdmin()) {
            throw ShlinkErrors.forbiddenTagOperation(detail);
        }
    }

    private static Comparator<ShlinkJson.TagInfo> order(String orderBy) {
        Comparator<ShlinkJson.TagInfo> byName = Comparator.comparing(ShlinkJson.TagInfo::tag);
        if (orderBy == null || orderBy.isBlank()) {
            return byName;
        }
        Comparator<ShlinkJson.TagInfo> order =
                switch (orderBy.replaceFirst("-(ASC|DESC)$", "")) {
                    case "tag" -> byName;
                    case "shortUrlsCount" -> Comparator.comparingLong(ShlinkJson.TagInfo::shortUrlsCount);
                    case "visits", "visitsCount" ->
                        Comparator.comparingLong(tag -> tag.visitsSummary().total());
                    case "nonBotVisits" ->
                        Comparator.comparingLong(tag -> tag.visitsSummary().nonBots());
                    default ->
                        throw ShlinkErrors.invalidData(
                                "orderBy",
                                "orderBy must be tag, shortUrlsCount, visits or "
                                        + "nonBotVisits, followed by -ASC or -DESC.");
                };
        return orderBy.endsWith("-DESC") ? order.reversed().thenComparing(byName) : order.thenComparing(byName);
    }
}
