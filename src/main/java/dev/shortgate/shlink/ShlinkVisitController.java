package dev.shortgate.shlink;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.system.settings.ShortgateProperties;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.counts.VisitDeletion;
import dev.shortgate.visit.orphan.OrphanVisits;
import org.springframework.http.MediaType;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Shlink's visits: per short URL, per tag, all of them ({@code non-orphan}), orphan visits (listed and deleted) and
 * the overview. Lists come from the raw visit rows (newest first); totals from the aggregates, which never drop a
 * visit.
 */
@RestController
@RequestMapping(path = "/rest/v3", produces = MediaType.APPLICATION_JSON_VALUE)
class ShlinkVisitController {

    static final int DEFAULT_ITEMS = Paging.MAX_ITEMS;
    private static final List<String> ORPHAN_TYPES =
            Arrays.stream(OrphanVisitType.values()).map(OrphanVisitType::value).toList();

    private final ShlinkVisits visits;
    private final ShlinkTags tags;
    private final ShortUrlController shortUrls;
    private final ShortgateProperties properties;
    private final OrphanVisits orphans;
    private final VisitDeletion deletion;
    private final Domains domains;

    ShlinkVisitController(
            ShlinkVisits visits,
            ShlinkTags tags,
            ShortUrlController shortUrls,
            ShortgateProperties properties,
            OrphanVisits orphans,
            VisitDeletion deletion,
            Domains domains) {
        this.domains = domains;
        this.orphans = orphans;
        this.deletion = deletion;
        this.visits = visits;
        this.tags = tags;
        this.shortUrls = shortUrls;
        this.properties = properties;
    }

    @GetMapping("/short-urls/{shortCode}/visits")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> ofShortUrl(
            @PathVariable String shortCode, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            String domain = exchange.getRequest().getQueryParams().getFirst("domain");
            String key = shortUrls.key(shortCode, domain, caller);
            return shortUrls
                    .readable(key, shortCode, domain, caller)
                    .flatMap(row -> list(ShlinkVisits.Scope.ofCode(key), exchange));
        });
    }

    /**
     * Deletes every visit of a short URL, raw rows and counts ({@link VisitDeletion} says what a deletion covers
     * while other pods still hold counts in memory). Answers how many visits it had, from the counts.
     */
    @DeleteMapping("/short-urls/{shortCode}/visits")
    Mono<Map<String, Long>> deleteOfShortUrl(@PathVariable String shortCode, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            String domain = exchange.getRequest().getQueryParams().getFirst("domain");
            String key = shortUrls.key(shortCode, domain, caller);
            return shortUrls
                    .readable(key, shortCode, domain, caller)
                    .flatMap(row -> {
                        if (!caller.canChange(row.link().apiKeyId())) {
                            throw ShlinkErrors.translate(Problem.FORBIDDEN.toException(
                                    "This API key may not delete the visits of this short URL."));
                        }
                        return deletion.deleteAll(key);
                    })
                    .map(deleted -> Map.of("deletedVisits", deleted))
                    .onErrorMap(ProblemException.class, ShlinkErrors::translate);
        });
    }

    @GetMapping("/tags/{tag}/visits")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> ofTag(@PathVariable String tag, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            return tags.exists(tag)
                    .flatMap(exists -> exists
                            ? list(new ShlinkVisits.Scope(null, tag, owner(caller), caller.domainId()), exchange)
                            : Mono.error(ShlinkErrors.tagNotFound(tag)));
        });
    }

    /**
     * Visits of one domain's short URLs: {@code DEFAULT} (or the base URL's authority) is the default domain, any
     * other a domain added through {@code /api/v1/domains}; Shlink's domain-not-found for one this gateway does not
     * have, 403 {@code domain-not-allowed} for one a key limited to another domain names.
     */
    @GetMapping("/domains/{domain}/visits")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> ofDomain(
            @PathVariable String domain, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            Domain named = ShlinkDomains.resolve(domain, caller, domains, properties)
                    .orElseThrow(() -> ShlinkErrors.domainNotFound(domain));
            return list(new ShlinkVisits.Scope(null, null, owner(caller), named.id()), exchange);
        });
    }

    @GetMapping("/visits/non-orphan")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> nonOrphan(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            return list(new ShlinkVisits.Scope(null, null, owner(caller), caller.domainId()), exchange);
        });
    }

    /**
     * Orphan visits: requests that reached no short URL (an unknown code, the base URL, another 404), newest first,
     * from their raw rows. A key that sees only its own links sees none (Shlink's {@code NO_ORPHAN_VISITS} role). Each
     * records the domain its request came to, as its {@code visitedUrl} shows: Shlink's {@code domain} query
     * ({@code DEFAULT} for the default domain) keeps one domain's, a domain this gateway does not have none, and a key
     * limited to one domain sees only its own (as Shlink's {@code DOMAIN_SPECIFIC} role).
     */
    @GetMapping("/visits/orphan")
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.OrphanVisit>>> orphan(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
            String type = params.getFirst("type");
            OrphanVisitType only = type == null ? null : OrphanVisitType.parse(type);
            if (type != null && only == null) {
                throw ShlinkErrors.invalidData(
                        "type", type + " is not a valid orphan visit type. Expected one of " + ORPHAN_TYPES + ".");
            }
            Paging paging = Paging.of(params, DEFAULT_ITEMS);
            OrphanVisits.Filter filter = new OrphanVisits.Filter(
                    only,
                    ShlinkParams.date(params, "startDate", false),
                    ShlinkParams.date(params, "endDate", true),
                    ShlinkParams.flag(params, "excludeBots"));
            String domain = params.getFirst("domain");
            if (domain != null && domain.isBlank()) {
                domain = null; // no filter, as Shlink
            }
            Domain named = domain == null && !caller.isDomainLimited()
                    ? null
                    : ShlinkDomains.resolve(domain, caller, domains, properties).orElse(null);
            if (caller.scope() == ApiScope.CREATE || (named == null && domain != null)) {
                return Mono.just(Map.of("visits", paging.page(List.<ShlinkJson.OrphanVisit>of(), 0)));
            }
            if (named != null) {
                filter = new OrphanVisits.Filter(
                        filter.type(), filter.from(), filter.to(), filter.excludeBots(), named.id());
            }
            return Mono.zip(
                            orphans.page(filter, paging.offset(), paging.itemsPerPage())
                                    .map(row -> ShlinkJson.orphanVisit(row, origin(row.domainId())))
                                    .collectList(),
                            orphans.count(filter))
                    .map(both -> Map.of("visits", paging.page(both.getT1(), both.getT2())));
        });
    }

    /**
     * Deletes every orphan visit, raw rows and counts (admin keys; a key that sees only its own links deletes none,
     * as in Shlink; a read key may not).
     */
    @DeleteMapping("/visits/orphan")
    Mono<Map<String, Long>> deleteOrphans(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            if (caller.scope() == ApiScope.CREATE) {
                return Mono.just(Map.of("deletedVisits", 0L));
            }
            if (!caller.isAdmin()) {
                throw ShlinkErrors.translate(
                        Problem.FORBIDDEN.toException("Only an admin key may delete orphan visits."));
            }
            return orphans.deleteAll().map(deleted -> Map.of("deletedVisits", deleted));
        });
    }

    @GetMapping("/visits")
    Mono<Map<String, Map<String, Object>>> overview(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            Long owner = owner(caller);
            Mono<long[]> totals = caller.scope() == ApiScope.CREATE && owner == null
                    ? Mono.just(new long[2])
                    : visits.totals(owner, caller.domainId());
            Mono<OrphanVisits.Totals> orphanTotals = caller.scope() == ApiScope.CREATE
                    ? Mono.just(new OrphanVisits.Totals(0, 0))
                    : caller.isDomainLimited() ? orphans.totals(caller.domainId()) : orphans.totals();
            return Mono.zip(totals, orphanTotals).map(both -> {
                long[] t = both.getT1();
                OrphanVisits.Totals o = both.getT2();
                return Map.of(
                        "visits",
                        Map.<String, Object>of(
                                "nonOrphanVisits", ShlinkJson.VisitsSummary.of(t[0], t[1]),
                                "orphanVisits", ShlinkJson.VisitsSummary.of(o.visits(), o.botVisits()),
                                "visitsCount", t[0],
                                "orphanVisitsCount", o.visits()));
            });
        });
    }

    private Mono<Map<String, ShlinkJson.Page<ShlinkJson.Visit>>> list(
            ShlinkVisits.Scope scope, ServerWebExchange exchange) {
        MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
        Paging paging = Paging.of(params, DEFAULT_ITEMS);
        Instant from = ShlinkParams.date(params, "startDate", false);
        Instant to = ShlinkParams.date(params, "endDate", true);
        boolean excludeBots = ShlinkParams.flag(params, "excludeBots");
        String domain = params.getFirst("domain");
        if (scope.code() == null && scope.domainId() == null && domain != null && !domain.isBlank()) {
            // a domain filter on every visit or a tag's: that domain's, or none for one Shortgate does not have, as
            // Shlink answers for a domain it does not know
            Domain named = ShlinkDomains.resolve(domain, ApiPrincipal.of(exchange), domains, properties)
                    .orElse(null);
            if (named == null) {
                return Mono.just(Map.of("visits", paging.page(List.<ShlinkJson.Visit>of(), 0)));
            }
            scope = new ShlinkVisits.Scope(scope.code(), scope.tag(), scope.owner(), named.id());
        } else if (scope.code() == null && domain != null && !domain.isBlank()) {
            Domain named = ShlinkDomains.resolve(domain, ApiPrincipal.of(exchange), domains, properties)
                    .orElse(null);
            if (named == null || named.id() != scope.domainId()) {
                return Mono.just(Map.of("visits", paging.page(List.<ShlinkJson.Visit>of(), 0)));
            }
        }
        return Mono.zip(
                        visits.page(scope, from, to, excludeBots, paging.offset(), paging.itemsPerPage())
                                .map(row -> ShlinkJson.visit(row, visitedUrl(row.code()), row.redirectUrl()))
                                .collectList(),
                        visits.count(scope, from, to, excludeBots))
                .map(both -> Map.of("visits", paging.page(both.getT1(), both.getT2())));
    }

    /** The short URL a visit was made to, on its link's domain ({@link DomainCodes}). */
    private String visitedUrl(String key) {
        String code = DomainCodes.code(key);
        return DomainCodes.domainId(key) == Domains.DEFAULT_ID
                ? properties.shortUrl(code)
                : properties.baseUrl().getScheme() + "://" + domains.hostOf(key) + "/" + code;
    }

    /**
     * Where an orphan visit's path is joined to: the base URL without a trailing {@code /} on the default domain (and
     * on a domain removed since), the base URL's scheme and the domain's host on another.
     */
    private String origin(int domainId) {
        String host = domainId == Domains.DEFAULT_ID ? null : domains.hostOfId(domainId);
        if (host == null) {
            String base = properties.baseUrl().toString();
            return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        }
        return properties.baseUrl().getScheme() + "://" + host;
    }

    /** A key that sees only its own links sees only their visits. */
    private static Long owner(ApiPrincipal caller) {
        return caller.scope() == ApiScope.CREATE ? (caller.keyId() == null ? -1L : caller.keyId()) : null;
    }
}
