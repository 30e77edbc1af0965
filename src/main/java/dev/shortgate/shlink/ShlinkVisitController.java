package dev.shortgate.shlink;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.ShortgateProperties;
import org.springframework.http.MediaType;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Shlink's visits: per short URL, per tag, all of them ({@code non-orphan}), orphan visits and the overview. Lists
 * come from the raw visit rows (newest first); totals from the aggregates, which never drop a visit.
 */
@RestController
@RequestMapping(path = "/rest/v3", produces = MediaType.APPLICATION_JSON_VALUE)
class ShlinkVisitController {

    static final int DEFAULT_ITEMS = Paging.MAX_ITEMS;
    private static final Set<String> ORPHAN_TYPES = Set.of("invalid_short_url", "base_url", "regular_404");

    private final ShlinkVisits visits;
    private final ShlinkTags tags;
    private final ShortUrlController shortUrls;
    private final ShortgateProperties properties;

    ShlinkVisitController(ShlinkVisits visits, ShlinkTags tags, ShortUrlController shortUrls,
                          ShortgateProperties properties) {
        this.visits = visits;
        this.tags = tags;
        this.shortUrls = shortUrls;
        this.properties = properties;
    }

    @GetMapping("/short-urls/{shortCode}/visits")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> ofShortUrl(@PathVariable String shortCode,
                                                                   ServerWebExchange exchange) {
        return Mono.defer(() -> shortUrls.readable(shortCode, ApiPrincipal.of(exchange))
                .flatMap(row -> list(ShlinkVisits.Scope.ofCode(shortCode), exchange)));
    }

    @GetMapping("/tags/{tag}/visits")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> ofTag(@PathVariable String tag, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            return tags.exists(tag).flatMap(exists -> exists
                    ? list(new ShlinkVisits.Scope(null, tag, owner(caller)), exchange)
                    : Mono.error(ShlinkErrors.tagNotFound(tag)));
        });
    }

    @GetMapping("/visits/non-orphan")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> nonOrphan(ServerWebExchange exchange) {
        return Mono.defer(() -> list(new ShlinkVisits.Scope(null, null, owner(ApiPrincipal.of(exchange))), exchange));
    }

    /**
     * Visits to codes that lead nowhere. Shortgate does not record them yet (see docs/adr/0009-shlink-api.md): the
     * list is always empty, with Shlink's validation of {@code type}.
     */
    @GetMapping("/visits/orphan")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> orphan(ServerWebExchange exchange) {
        return Mono.fromSupplier(() -> {
            ApiPrincipal.of(exchange);
            MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
            String type = params.getFirst("type");
            if (type != null && !ORPHAN_TYPES.contains(type)) {
                throw ShlinkErrors.invalidData("type", "type must be one of " + ORPHAN_TYPES + ".");
            }
            return Map.of("visits", Paging.of(params, DEFAULT_ITEMS).page(List.<ShlinkJson.Visit>of(), 0));
        });
    }

    @GetMapping("/visits")
    Mono<Map<String, Map<String, Object>>> overview(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            Long owner = owner(caller);
            Mono<long[]> totals = caller.scope() == ApiScope.CREATE && owner == null
                    ? Mono.just(new long[2]) : visits.totals(owner);
            return totals.map(t -> Map.of("visits", Map.<String, Object>of(
                    "nonOrphanVisits", ShlinkJson.VisitsSummary.of(t[0], t[1]),
                    "orphanVisits", ShlinkJson.VisitsSummary.of(0, 0),
                    "visitsCount", t[0],
                    "orphanVisitsCount", 0)));
        });
    }

    private Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> list(ShlinkVisits.Scope scope,
                                                                       ServerWebExchange exchange) {
        MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
        Paging paging = Paging.of(params, DEFAULT_ITEMS);
        Instant from = ShlinkParams.date(params, "startDate", false);
        Instant to = ShlinkParams.date(params, "endDate", true);
        boolean excludeBots = ShlinkParams.flag(params, "excludeBots");
        return Mono.zip(visits.page(scope, from, to, excludeBots, paging.offset(), paging.itemsPerPage())
                                .map(row -> ShlinkJson.visit(row, properties.shortUrl(row.code()), null))
                                .collectList(),
                        visits.count(scope, from, to, excludeBots))
                .map(both -> Map.of("visits", paging.page(both.getT1(), both.getT2())));
    }

    /** A key that sees only its own links sees only their visits. */
    private static Long owner(ApiPrincipal caller) {
        return caller.scope() == ApiScope.CREATE ? (caller.keyId() == null ? -1L : caller.keyId()) : null;
    }
}
