package dev.shortgate.shlink;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.CreateLinkRequest;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinkPatch;
import dev.shortgate.link.LinkService;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.system.settings.ShortgateProperties;
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
import org.springframework.web.bind.annotation.RequestParam;
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

    private final LinkService links;
    private final ShlinkShortUrls shortUrls;
    private final ShortgateProperties properties;
    private final Clock clock;

    private final Domains domains;

    ShortUrlController(
            LinkService links,
            ShlinkShortUrls shortUrls,
            ShortgateProperties properties,
            Clock clock,
            Domains domains) {
        this.domains = domains;
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
            String order = ShortUrlQuery.order(params);
            if (caller.scope() == ApiScope.CREATE && caller.keyId() == null) {
                return Mono.just(Map.of("shortUrls", paging.page(List.<ShlinkJson.ShortUrl>of(), 0)));
            }
            ShortUrlQuery query = ShortUrlQuery.of(
                    params,
                    caller.scope() == ApiScope.CREATE ? caller.keyId() : null,
                    listDomain(params.getFirst("domain"), caller),
                    order,
                    clock.instant());
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
            ShortUrlBody fields = new ShortUrlBody(body, ShortUrlBody.CREATE_FIELDS, clock);
            String longUrl = fields.requiredText("longUrl");
            String slug = fields.text("customSlug");
            Integer length = fields.length();
            Instant validSince = fields.validSince();
            Instant validUntil = fields.date("validUntil");
            Long maxVisits = fields.maxVisits();
            List<String> tags = fields.tags();
            String title = fields.text("title");
            Boolean crawlable = fields.bool("crawlable");
            Boolean forwardQuery = fields.bool("forwardQuery");
            fields.bool("findIfExists");
            // Shortgate never registers a domain on the fly (ADR 24); a key limited to one domain gets 403 for another
            String domain = ShlinkDomains.resolve(fields.text("domain"), caller, domains, properties)
                    .map(Domain::host)
                    .orElse(null);
            if (domain == null) {
                fields.invalid("domain");
            }
            String pathPrefix = fields.text("pathPrefix");
            if (pathPrefix != null && !pathPrefix.isEmpty()) {
                fields.invalid("pathPrefix");
            }
            if (validUntil != null && validSince != null && !validUntil.isAfter(validSince)) {
                fields.invalid("validUntil");
            }
            fields.check();
            if (slug != null && slug.isBlank()) {
                slug = null;
            }
            String customSlug = slug;
            // Shlink forwards the visitor's query string unless told not to.
            CreateLinkRequest request = new CreateLinkRequest(
                    longUrl,
                    customSlug == null ? length : null,
                    customSlug,
                    validUntil,
                    maxVisits,
                    null,
                    null,
                    forwardQuery == null || forwardQuery,
                    domain,
                    tags);
            // LinkService writes the tags of a link it makes; Shlink's own fields are kept here.
            return links.create(request, caller)
                    .flatMap(created -> created.created()
                            ? shortUrls
                                    .saveMeta(created.link().code(), title, Boolean.TRUE.equals(crawlable), validSince)
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

    /**
     * Shlink's single-step create: {@code longUrl} from the query, the key in {@code X-Api-Key} or the {@code apiKey}
     * parameter; {@code format=txt} (or {@code Accept: text/plain} without a format) answers the short URL alone as
     * plain text, else the short URL's JSON.
     */
    @GetMapping(path = "/shorten", produces = MediaType.ALL_VALUE)
    Mono<ResponseEntity<Object>> shorten(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
            Map<String, Object> body = new HashMap<>();
            body.put("longUrl", params.getFirst("longUrl"));
            String format = params.getFirst("format");
            List<MediaType> accept = exchange.getRequest().getHeaders().getAccept();
            boolean text = format != null
                    ? "txt".equalsIgnoreCase(format)
                    : !accept.isEmpty()
                            && accept.get(0).includes(MediaType.TEXT_PLAIN)
                            && !MediaType.ALL.equals(accept.get(0));
            return create(body, exchange)
                    .map(shortUrl -> text
                            ? ResponseEntity.ok()
                                    .contentType(MediaType.TEXT_PLAIN)
                                    .<Object>body(shortUrl.shortUrl())
                            : ResponseEntity.ok()
                                    .contentType(MediaType.APPLICATION_JSON)
                                    .<Object>body(shortUrl));
        });
    }

    @GetMapping("/{shortCode}")
    Mono<ShlinkJson.ShortUrl> get(
            @PathVariable String shortCode, @RequestParam(required = false) String domain, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            return readable(key(shortCode, domain, caller), shortCode, domain, caller)
                    .map(this::toJson);
        });
    }

    @PatchMapping(path = "/{shortCode}", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ShlinkJson.ShortUrl> edit(
            @PathVariable String shortCode,
            @RequestParam(required = false) String domain,
            @RequestBody Map<String, Object> body,
            ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            String key = key(shortCode, domain, caller);
            ShortUrlBody fields = new ShortUrlBody(body, ShortUrlBody.EDIT_FIELDS, clock);
            Set<String> named = new LinkedHashSet<>();
            String url = null;
            if (fields.has("longUrl")) {
                named.add("url");
                url = fields.requiredText("longUrl");
            }
            Instant until = null;
            if (fields.has("validUntil")) {
                named.add("expiresAt");
                until = fields.date("validUntil");
            }
            Long maxVisits = null;
            if (fields.has("maxVisits")) {
                named.add("maxVisits");
                maxVisits = fields.maxVisits();
            }
            Boolean forwardQuery = null;
            if (fields.has("forwardQuery")) {
                named.add("forwardQuery");
                Boolean forward = fields.bool("forwardQuery");
                forwardQuery = forward == null || forward;
            }
            // validated here; the fields it names are set
            LinkPatch patch = new LinkPatch(named, url, until, maxVisits, null, null, forwardQuery, null);
            Instant validSince = fields.validSince();
            List<String> tags = fields.has("tags") ? fields.tags() : null;
            String title = fields.text("title");
            Boolean crawlable = fields.bool("crawlable");
            fields.check();
            Mono<Link> changed = named.isEmpty()
                    ? links.get(key, caller).map(link -> {
                        if (!caller.canChange(link.apiKeyId())) {
                            throw Problem.FORBIDDEN.toException("This API key may not change this short URL.");
                        }
                        return link;
                    })
                    : links.update(key, patch, caller);
            boolean metaChanged = fields.has("title") || fields.has("crawlable") || fields.has("validSince");
            return changed.flatMap(link -> shortUrls.find(link.code()))
                    .flatMap(current -> (tags == null ? Mono.<Void>empty() : shortUrls.setTags(key, tags))
                            .then(
                                    metaChanged
                                            ? shortUrls.saveMeta(
                                                    key,
                                                    fields.has("title") ? title : current.title(),
                                                    fields.has("crawlable")
                                                            ? Boolean.TRUE.equals(crawlable)
                                                            : current.crawlable(),
                                                    fields.has("validSince") ? validSince : current.validSince())
                                            : Mono.<Void>empty()))
                    .then(Mono.defer(() -> shortUrls.find(key)))
                    .map(this::toJson)
                    .onErrorMap(ProblemException.class, e -> ShlinkErrors.translate(e, shortCode, domain));
        });
    }

    @DeleteMapping("/{shortCode}")
    Mono<ResponseEntity<Void>> delete(
            @PathVariable String shortCode, @RequestParam(required = false) String domain, ServerWebExchange exchange) {
        return Mono.defer(() -> {
                    String key = key(shortCode, domain, ApiPrincipal.of(exchange));
                    return links.delete(key, ApiPrincipal.of(exchange))
                            .then(Mono.defer(() -> shortUrls.deleteMeta(key)));
                })
                .thenReturn(ResponseEntity.noContent().<Void>build())
                .onErrorMap(ProblemException.class, e -> ShlinkErrors.translate(e, shortCode, domain));
    }

    /**
     * The key {@code shortCode} on the domain a request's {@code domain} query names is stored under (see
     * {@link ShlinkDomains#resolve}); Shlink's short-url-not-found for a domain this gateway does not have, 403
     * {@code domain-not-allowed} for one the key may not use. What is no code is returned as it is, and is found
     * nowhere.
     */
    String key(String shortCode, String domain, ApiPrincipal caller) {
        Domain named = ShlinkDomains.resolve(domain, caller, domains, properties)
                .orElseThrow(() -> ShlinkErrors.shortUrlNotFound(shortCode, domain));
        return Link.CODE.matcher(shortCode).matches() ? DomainCodes.key(named, shortCode) : shortCode;
    }

    /**
     * The live short URL stored under {@code key} ({@link #key}) that this caller may read, or Shlink's 404 for the
     * {@code shortCode} and {@code domain} the request named.
     */
    Mono<ShortUrlRow> readable(String key, String shortCode, String domain, ApiPrincipal caller) {
        Mono<ShortUrlRow> found = Link.KEY.matcher(key).matches() && caller.mayUse(DomainCodes.domainId(key))
                ? shortUrls.find(key)
                : Mono.empty();
        return found.filter(row -> caller.canRead(row.link().apiKeyId()))
                .switchIfEmpty(Mono.error(() ->
                        ShlinkErrors.shortUrlNotFound(shortCode, domain == null || domain.isBlank() ? null : domain)));
    }

    /**
     * The domain id the list's {@code domain} filter names: {@code null} (every domain) when absent, the key's own
     * for a key limited to one domain, {@link ShortUrlQuery#NO_DOMAIN} for one this gateway does not have.
     */
    private Integer listDomain(String domain, ApiPrincipal caller) {
        if ((domain == null || domain.isBlank()) && !caller.isDomainLimited()) {
            return null;
        }
        return ShlinkDomains.resolve(domain, caller, domains, properties)
                .map(Domain::id)
                .orElse(ShortUrlQuery.NO_DOMAIN);
    }

    private ShlinkJson.ShortUrl toJson(ShortUrlRow row) {
        String key = row.link().code();
        String code = DomainCodes.code(key);
        if (DomainCodes.domainId(key) == Domains.DEFAULT_ID) {
            return ShlinkJson.shortUrl(row, code, null, properties.shortUrl(code));
        }
        String host = domains.hostOf(key);
        return ShlinkJson.shortUrl(row, code, host, properties.baseUrl().getScheme() + "://" + host + "/" + code);
    }
}
