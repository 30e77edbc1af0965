package dev.shortgate.link.api;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.CreateLinkRequest;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinkPatch;
import dev.shortgate.link.LinkService;
import dev.shortgate.link.store.LinkTags;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.problem.JsonProblems;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.system.settings.ShortgateProperties;
import dev.shortgate.system.web.ApiDeadlines;
import dev.shortgate.system.web.RequestJson;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
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
import reactor.core.scheduler.Schedulers;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The links API: create one or many, list, read, change and delete. Errors are RFC 9457 problem details. */
@RestController
@RequestMapping(path = "/api/v1/links", produces = MediaType.APPLICATION_JSON_VALUE)
class LinkController {

    static final String DOMAIN = "The link's domain (a host added through /api/v1/domains); absent: the default"
            + " domain, or for a key limited to one domain its own. Another domain than a limited key's answers 403"
            + " domain-not-allowed; one that was not added, 400 unknown-domain.";

    static final int MAX_BATCH = 1000;
    static final String MERGE_PATCH_JSON = "application/merge-patch+json";
    /** Batch items are created a few at a time: enough to hide round trips, few enough to share the pool. */
    private static final int BATCH_CONCURRENCY = 8;

    private final LinkService links;
    private final ShortgateProperties properties;
    private final JsonMapper json;
    private final RequestJson requestJson;
    private final ApiDeadlines deadlines;
    private final Domains domains;

    LinkController(
            LinkService links,
            ShortgateProperties properties,
            JsonMapper json,
            RequestJson requestJson,
            ApiDeadlines deadlines,
            Domains domains) {
        this.links = links;
        this.requestJson = requestJson;
        this.properties = properties;
        this.json = json;
        this.deadlines = deadlines;
        this.domains = domains;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "201", description = "Created; Location names the new link")
    @ApiResponse(responseCode = "200", description = "This URL already has a link with these settings: that link")
    @ApiResponse(
            responseCode = "400",
            description = "invalid-request naming the field: a value that does not bind or breaks a rule, or a"
                    + " field this request does not have; nothing is written")
    Mono<ResponseEntity<LinkResponse>> create(@RequestBody CreateLinkRequest request, ServerWebExchange exchange) {
        return links.create(request, ApiPrincipal.of(exchange))
                .flatMap(result -> withTags(result, request).map(tags -> {
                    LinkResponse body = toResponse(result.link(), tags);
                    return result.created()
                            ? ResponseEntity.created(URI.create("/api/v1/links/" + body.code()
                                            + (body.domain() == null ? "" : "?domain=" + body.domain())))
                                    .body(body)
                            : ResponseEntity.ok(body);
                }));
    }

    /**
     * The tags a create's answer shows: those it asked for when it made the link (the same {@link LinkTags#normalize}
     * wrote), else the found link's own, read back.
     */
    private Mono<List<String>> withTags(LinkService.Created result, CreateLinkRequest request) {
        if (result.created()) {
            return Mono.just(createdTags(request));
        }
        String key = result.link().code();
        return links.tagsOf(List.of(key)).map(tags -> tags.getOrDefault(key, List.of()));
    }

    /**
     * Creates up to {@link #MAX_BATCH} links, a few at a time, within {@code shortgate.api.batch-deadline}. The
     * answer holds one result per item in input order: the link (with its status) or a problem (with its index).
     * Items still unfinished at the deadline are cancelled and answer {@code deadline-exceeded}; the answer then
     * carries {@code Retry-After}. Such an item may have been written just before the deadline: sending it again
     * finds it (find-if-exists) rather than making a second code.
     */
    @PostMapping(path = "/batch", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<Map<String, List<Object>>>> batch(
            @RequestBody BatchRequest request, ServerWebExchange exchange) {
        if (request.links() == null
                || request.links().isEmpty()
                || request.links().size() > MAX_BATCH) {
            int size = request.links() == null ? 0 : request.links().size();
            return Mono.error(Problem.INVALID_REQUEST
                    .toException("links must hold 1 to " + MAX_BATCH + " items; got " + size + ".")
                    .with("field", "links"));
        }
        ApiPrincipal caller = ApiPrincipal.of(exchange);
        List<JsonNode> nodes = request.links();
        Duration budget = deadlines.batchRemaining(exchange);
        AtomicReferenceArray<Object> results = new AtomicReferenceArray<>(nodes.size());
        // Each item is bound on its own: one that does not bind answers its own problem, and is not created.
        List<CreateLinkRequest> items = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode node = nodes.get(i);
            CreateLinkRequest item = null;
            if (node == null || node.isNull()) {
                results.set(i, itemProblem(i, Problem.INVALID_REQUEST.toException("Item is null.")));
            } else {
                try {
                    item = requestJson.bind(node, CreateLinkRequest.class);
                } catch (JacksonException e) {
                    results.set(i, itemProblem(i, JsonProblems.invalidField(e)));
                }
            }
            items.add(item);
        }
        // A link found is answered as soon as its tags are read, so an item done before the deadline is answered
        return links.createBatch(items, caller, BATCH_CONCURRENCY)
                .flatMap(
                        result -> {
                            if (result.problem() != null) {
                                results.compareAndSet(
                                        result.index(), null, itemProblem(result.index(), result.problem()));
                                return Mono.empty();
                            }
                            if (result.created().created()) {
                                results.compareAndSet(
                                        result.index(),
                                        null,
                                        toResponse(result.created().link(), createdTags(items.get(result.index())))
                                                .withStatus(HttpStatus.CREATED.value()));
                                return Mono.empty();
                            }
                            return answerFound(result, results);
                        },
                        BATCH_CONCURRENCY)
                .then()
                .then(Mono.just(Boolean.TRUE))
                .timeout(budget, Mono.just(Boolean.FALSE).publishOn(Schedulers.parallel()), deadlines.timer())
                .map(finished -> {
                    List<Object> answer = new ArrayList<>(items.size());
                    int late = 0;
                    for (int i = 0; i < items.size(); i++) {
                        Object result = results.get(i);
                        if (result == null) {
                            late++;
                            result = itemProblem(
                                    i,
                                    ApiDeadlines.deadlineExceeded("This item was not finished "
                                            + "within the batch deadline (" + deadlines.batchDeadlineSetting() + ")."));
                        }
                        answer.add(result);
                    }
                    if (late == 0) {
                        return ResponseEntity.ok(Map.of("results", answer));
                    }
                    deadlines.batchItemsExceeded(late);
                    return ResponseEntity.ok()
                            .header(HttpHeaders.RETRY_AFTER, "1")
                            .body(Map.of("results", answer));
                });
    }

    /** Answers a batch item that found its link (200), with the tags the link has. */
    private Mono<Void> answerFound(LinkService.ItemResult result, AtomicReferenceArray<Object> results) {
        String key = result.created().link().code();
        return links.tagsOf(List.of(key))
                .doOnNext(tags -> results.compareAndSet(
                        result.index(),
                        null,
                        toResponse(result.created().link(), tags.getOrDefault(key, List.of()))
                                .withStatus(HttpStatus.OK.value())))
                .then();
    }

    /** The tags a create that made its link wrote, in name order as the link's tags are read back. */
    private static List<String> createdTags(CreateLinkRequest request) {
        return LinkTags.normalize(request.tags()).orElse(List.of()).stream()
                .sorted()
                .toList();
    }

    private static ProblemDetail itemProblem(int index, ProblemException e) {
        ProblemDetail body = e.getBody();
        body.setProperty("index", index);
        return body;
    }

    @GetMapping
    Mono<Map<String, Object>> list(
            @RequestParam(required = false) String cursor,
            @RequestParam(required = false) Integer limit,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        return Mono.fromSupplier(() ->
                        domains.forCaller(domain, ApiPrincipal.of(exchange)).id())
                .flatMap(domainId -> links.list(cursor, limit, domainId, ApiPrincipal.of(exchange)))
                .flatMap(page -> links.tagsOf(
                                page.links().stream().map(Link::code).toList())
                        .map(tags -> {
                            List<LinkResponse> items = page.links().stream()
                                    .map(link -> toResponse(link, tags.getOrDefault(link.code(), List.of())))
                                    .toList();
                            return page.nextCursor() == null
                                    ? Map.of("links", items)
                                    : Map.of("links", items, "nextCursor", page.nextCursor());
                        }));
    }

    @GetMapping("/{code}")
    Mono<LinkResponse> get(
            @PathVariable String code,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        return Mono.fromSupplier(() -> key(code, domain, exchange))
                .flatMap(key -> links.get(key, ApiPrincipal.of(exchange)))
                .flatMap(this::withTags);
    }

    @PatchMapping(
            path = "/{code}",
            consumes = {MERGE_PATCH_JSON, MediaType.APPLICATION_JSON_VALUE})
    Mono<LinkResponse> update(
            @PathVariable String code,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            @RequestBody ObjectNode patch,
            ServerWebExchange exchange) {
        return Mono.fromSupplier(() -> key(code, domain, exchange))
                .flatMap(key -> Mono.fromSupplier(() -> LinkPatch.of(patch, json))
                        .flatMap(changes -> links.update(key, changes, ApiPrincipal.of(exchange))))
                .flatMap(this::withTags);
    }

    @DeleteMapping("/{code}")
    @ApiResponse(responseCode = "204", description = "Deleted; the code is never reused")
    Mono<ResponseEntity<Void>> delete(
            @PathVariable String code,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        return Mono.fromSupplier(() -> key(code, domain, exchange))
                .flatMap(key -> links.delete(key, ApiPrincipal.of(exchange)))
                .thenReturn(ResponseEntity.noContent().build());
    }

    /**
     * The stored key of {@code code} on {@code domain} (absent: the default domain, or the caller's own for a key
     * limited to one domain); 404 for what is no code, 403 {@code domain-not-allowed} for a domain the key may not use.
     */
    private String key(String code, String domain, ServerWebExchange exchange) {
        if (!Link.CODE.matcher(code).matches()) {
            throw Problem.LINK_NOT_FOUND
                    .toException("No link has the code '" + code + "'.")
                    .with("code", code);
        }
        return DomainCodes.key(domains.forCaller(domain, ApiPrincipal.of(exchange)), code);
    }

    /** The link as the API shows it, with its tags read. */
    private Mono<LinkResponse> withTags(Link link) {
        return links.tagsOf(List.of(link.code()))
                .map(tags -> toResponse(link, tags.getOrDefault(link.code(), List.of())));
    }

    private LinkResponse toResponse(Link link, List<String> tags) {
        int domainId = DomainCodes.domainId(link.code());
        String code = DomainCodes.code(link.code());
        if (domainId == Domains.DEFAULT_ID) {
            return LinkResponse.of(link, code, null, properties.shortUrl(code), tags);
        }
        String host = domains.hostOf(link.code());
        return LinkResponse.of(link, code, host, properties.baseUrl().getScheme() + "://" + host + "/" + code, tags);
    }
}
