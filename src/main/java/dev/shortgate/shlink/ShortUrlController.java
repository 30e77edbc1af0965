package dev.shortgate.shlink;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.shortgate.link.CreateLinkRequest;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinkPatch;
import dev.shortgate.link.LinkService;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.Problem;
import dev.shortgate.system.ProblemException;
import dev.shortgate.system.ShortgateProperties;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Shlink's short URLs ({@code /rest/v3/short-urls}): list, create, get, edit, delete. Links are made and changed by
 * {@link LinkService}, with Shortgate's URL policy, code generation and cache invalidation; tags, title and
 * crawlable are kept beside them.
 */
@RestController
@RequestMapping(path = "/rest/v3/short-urls", produces = MediaType.APPLICATION_JSON_VALUE)
class ShortUrlController {

    static final int DEFAULT_ITEMS = 10;
    static final int MAX_TAG_LENGTH = 255;
    private static final Set<String> CREATE_FIELDS = Set.of(
            "longUrl",
            "customSlug",
            "shortCodeLength",
            "findIfExists",
            "validSince",
            "validUntil",
            "maxVisits",
            "tags",
            "title",
            "crawlable",
            "forwardQuery",
            "domain",
            "pathPrefix",
            "deviceLongUrls",
            "validateUrl",
            "apiKey");
    private static final Set<String> EDIT_FIELDS = Set.of(
            "longUrl",
            "validSince",
            "validUntil",
            "maxVisits",
            "tags",
            "title",
            "crawlable",
            "forwardQuery",
            "deviceLongUrls",
            "validateUrl");

    private final LinkService links;
    private final ShlinkShortUrls shortUrls;
    private final ShortgateProperties properties;
    private final Clock clock;

    ShortUrlController(LinkService links, ShlinkShortUrls shortUrls, ShortgateProperties properties, Clock clock) {
        this.links = links;
        this.shortUrls = shortUrls;
        this.properties = properties;
        this.clock = clock;
    }

    @GetMapping
    Mono<Map<String, ShlinkJson.Page<ShlinkJson.ShortUrl>>> list(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
            Paging paging = Paging.of(params, DEFAULT_ITEMS);
            String orderParam = params.getFirst("orderBy");
            String order = orderParam == null || orderParam.isBlank()
                    ? ShortUrlQuery.DEFAULT_ORDER
                    : ShortUrlQuery.ORDERS.get(orderParam);
            if (order == null) {
                throw ShlinkErrors.invalidData(
                        "orderBy", "orderBy must be one of " + ShortUrlQuery.ORDERS.keySet() + ".");
            }
            if (caller.scope() == ApiScope.CREATE && caller.keyId() == null) {
                return Mono.just(Map.of("shortUrls", paging.page(List.<ShlinkJson.ShortUrl>of(), 0)));
            }
            ShortUrlQuery query = new ShortUrlQuery(
                    caller.scope() == ApiScope.CREATE ? caller.keyId() : null,
                    params.getFirst("searchTerm"),
                    ShlinkParams.list(params, "tags"),
                    "all".equals(params.getFirst("tagsMode")),
                    ShlinkParams.date(params, "startDate", false),
                    ShlinkParams.date(params, "endDate", true),
                    ShlinkParams.flag(params, "excludeMaxVisitsReached"),
                    ShlinkParams.flag(params, "excludePastValidUntil"),
                    clock.instant(),
                    order);
            return Mono.zip(
                            shortUrls
                                    .page(query, paging.offset(), paging.itemsPerPage())
                                    .map(this::toJson)
                                    .collectList(),
                            shortUrls.count(query))
                    .map(both -> Map.of("shortUrls", paging.page(both.getT1(), both.getT2())));
        });
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ShlinkJson.ShortUrl> create(@RequestBody Map<String, Object> body, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            List<String> invalid = new ArrayList<>();
            for (String field : body.keySet()) {
                if (!CREATE_FIELDS.contains(field)) {
                    invalid.add(field);
                }
            }
            Object longUrl = body.get("longUrl");
            if (!(longUrl instanceof String)) {
                invalid.add("longUrl");
            }
            String slug = optionalText(body, "customSlug", invalid);
            Integer length = optionalLength(body, invalid);
            Instant validSince = optionalValidSince(body, invalid);
            Instant validUntil = optionalDate(body, "validUntil", invalid);
            Long maxVisits = optionalMaxVisits(body, invalid);
            List<String> tags = optionalTags(body, invalid);
            String title = optionalText(body, "title", invalid);
            Boolean crawlable = optionalBool(body, "crawlable", invalid);
            Boolean forwardQuery = optionalBool(body, "forwardQuery", invalid);
            optionalBool(body, "findIfExists", invalid);
            String domain = optionalText(body, "domain", invalid);
            if (domain != null
                    && !domain.isBlank()
                    && !domain.equalsIgnoreCase(properties.baseUrl().getAuthority())) {
                invalid.add("domain");
            }
            String pathPrefix = optionalText(body, "pathPrefix", invalid);
            if (pathPrefix != null && !pathPrefix.isEmpty()) {
                invalid.add("pathPrefix");
            }
            if (validUntil != null && validSince != null && !validUntil.isAfter(validSince)) {
                invalid.add("validUntil");
            }
            if (!invalid.isEmpty()) {
                throw ShlinkErrors.invalidData(List.copyOf(new LinkedHashSet<>(invalid)));
            }
            if (slug != null && slug.isBlank()) {
                slug = null;
            }
            String customSlug = slug;
            // Shlink forwards the visitor's query string unless told not to.
            CreateLinkRequest request = new CreateLinkRequest(
                    (String) longUrl,
                    customSlug == null ? length : null,
                    customSlug,
                    validUntil,
                    maxVisits,
                    null,
                    null,
                    forwardQuery == null || forwardQuery);
            return links.create(request, caller)
                    .flatMap(created -> created.created()
                            ? shortUrls
                                    .setTags(created.link().code(), tags)
                                    .then(shortUrls.saveMeta(
                                            created.link().code(), title, Boolean.TRUE.equals(crawlable), validSince))
                                    .thenReturn(created.link())
                            : Mono.just(created.link()))
                    .flatMap(link -> shortUrls.find(link.code()))
                    .map(this::toJson)
                    .onErrorMap(
                            ProblemException.class,
                            e -> e.problem() == Problem.ALIAS_TAKEN && customSlug != null
                                    ? ShlinkErrors.nonUniqueSlug(customSlug)
                                    : ShlinkErrors.translate(e));
        });
    }

    @GetMapping("/{shortCode}")
    Mono<ShlinkJson.ShortUrl> get(@PathVariable String shortCode, ServerWebExchange exchange) {
        return Mono.defer(() -> readable(shortCode, ApiPrincipal.of(exchange)).map(this::toJson));
    }

    @PatchMapping(path = "/{shortCode}", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ShlinkJson.ShortUrl> edit(
            @PathVariable String shortCode, @RequestBody Map<String, Object> body, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            List<String> invalid = new ArrayList<>();
            for (String field : body.keySet()) {
                if (!EDIT_FIELDS.contains(field)) {
                    invalid.add(field);
                }
            }
            Set<String> named = new LinkedHashSet<>();
            String url = null;
            if (body.containsKey("longUrl")) {
                named.add("url");
                if (body.get("longUrl") instanceof String text) {
                    url = text;
                } else {
                    invalid.add("longUrl");
                }
            }
            Instant until = null;
            if (body.containsKey("validUntil")) {
                named.add("expiresAt");
                until = optionalDate(body, "validUntil", invalid);
            }
            Long maxVisits = null;
            if (body.containsKey("maxVisits")) {
                named.add("maxVisits");
                maxVisits = optionalMaxVisits(body, invalid);
            }
            Boolean forwardQuery = null;
            if (body.containsKey("forwardQuery")) {
                named.add("forwardQuery");
                Boolean forward = optionalBool(body, "forwardQuery", invalid);
                forwardQuery = forward == null || forward;
            }
            LinkPatch patch = LinkPatch.of(named, url, until, maxVisits, null, null, forwardQuery);
            Instant validSince = optionalValidSince(body, invalid);
            List<String> tags = body.containsKey("tags") ? optionalTags(body, invalid) : null;
            String title = optionalText(body, "title", invalid);
            Boolean crawlable = optionalBool(body, "crawlable", invalid);
            if (!invalid.isEmpty()) {
                throw ShlinkErrors.invalidData(List.copyOf(new LinkedHashSet<>(invalid)));
            }
            Mono<Link> changed = named.isEmpty()
                    ? links.get(shortCode, caller).map(link -> {
                        if (!caller.canChange(link.apiKeyId())) {
                            throw Problem.FORBIDDEN.toException("This API key may not change this short URL.");
                        }
                        return link;
                    })
                    : links.update(shortCode, patch, caller);
            boolean metaChanged =
                    body.containsKey("title") || body.containsKey("crawlable") || body.containsKey("validSince");
            return changed.flatMap(link -> shortUrls.find(link.code()))
                    .flatMap(current -> (tags == null ? Mono.<Void>empty() : shortUrls.setTags(shortCode, tags))
                            .then(
                                    metaChanged
                                            ? shortUrls.saveMeta(
                                                    shortCode,
                                                    body.containsKey("title") ? title : current.title(),
                                                    body.containsKey("crawlable")
                                                            ? Boolean.TRUE.equals(crawlable)
                                                            : current.crawlable(),
                                                    body.containsKey("validSince") ? validSince : current.validSince())
                                            : Mono.<Void>empty()))
                    .then(Mono.defer(() -> shortUrls.find(shortCode)))
                    .map(this::toJson)
                    .onErrorMap(ProblemException.class, ShlinkErrors::translate);
        });
    }

    @DeleteMapping("/{shortCode}")
    Mono<ResponseEntity<Void>> delete(@PathVariable String shortCode, ServerWebExchange exchange) {
        return Mono.defer(() -> links.delete(shortCode, ApiPrincipal.of(exchange)))
                .then(Mono.defer(() -> shortUrls.forget(shortCode)))
                .thenReturn(ResponseEntity.noContent().<Void>build())
                .onErrorMap(ProblemException.class, ShlinkErrors::translate);
    }

    /** The live short URL this caller may read, or Shlink's 404. */
    Mono<ShortUrlRow> readable(String shortCode, ApiPrincipal caller) {
        Mono<ShortUrlRow> found = Link.CODE.matcher(shortCode).matches() ? shortUrls.find(shortCode) : Mono.empty();
        return found.filter(row -> caller.canRead(row.link().apiKeyId()))
                .switchIfEmpty(Mono.error(() -> ShlinkErrors.shortUrlNotFound(shortCode)));
    }

    private ShlinkJson.ShortUrl toJson(ShortUrlRow row) {
        return ShlinkJson.shortUrl(row, properties.shortUrl(row.link().code()));
    }

    private static String optionalText(Map<String, Object> body, String field, List<String> invalid) {
        Object value = body.get(field);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        invalid.add(field);
        return null;
    }

    private static Boolean optionalBool(Map<String, Object> body, String field, List<String> invalid) {
        Object value = body.get(field);
        if (value == null || value instanceof Boolean) {
            return (Boolean) value;
        }
        invalid.add(field);
        return null;
    }

    private static Integer optionalLength(Map<String, Object> body, List<String> invalid) {
        Object value = body.get("shortCodeLength");
        if (value == null) {
            return null;
        }
        if (value instanceof Number n && n.doubleValue() == n.intValue() && n.intValue() >= 1 && n.intValue() <= 8) {
            return n.intValue();
        }
        invalid.add("shortCodeLength");
        return null;
    }

    private static Long optionalMaxVisits(Map<String, Object> body, List<String> invalid) {
        Object value = body.get("maxVisits");
        if (value == null) {
            return null;
        }
        if (value instanceof Number n && n.doubleValue() == n.longValue() && n.longValue() >= 1) {
            return n.longValue();
        }
        invalid.add("maxVisits");
        return null;
    }

    private static Instant optionalDate(Map<String, Object> body, String field, List<String> invalid) {
        Object value = body.get(field);
        if (value == null) {
            return null;
        }
        if (value instanceof String text) {
            try {
                return ShlinkJson.parse(text, false);
            } catch (DateTimeException e) {
                // reported below
            }
        }
        invalid.add(field);
        return null;
    }

    /** Shortgate does not hold a link back until a later date: only a validSince already past is accepted. */
    private Instant optionalValidSince(Map<String, Object> body, List<String> invalid) {
        Instant since = optionalDate(body, "validSince", invalid);
        if (since != null && since.isAfter(clock.instant())) {
            invalid.add("validSince");
            return null;
        }
        return since;
    }

    private static List<String> optionalTags(Map<String, Object> body, List<String> invalid) {
        Object value = body.get("tags");
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> given)) {
            invalid.add("tags");
            return List.of();
        }
        LinkedHashSet<String> tags = new LinkedHashSet<>();
        for (Object tag : given) {
            if (!(tag instanceof String name) || name.trim().length() > MAX_TAG_LENGTH) {
                invalid.add("tags");
                return List.of();
            }
            if (!name.isBlank()) {
                tags.add(name.trim());
            }
        }
        return List.copyOf(tags);
    }
}
