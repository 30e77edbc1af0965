package dev.shortgate.link;

import java.net.URI;
import java.util.List;
import java.util.Map;

import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.Problem;
import dev.shortgate.system.ProblemException;
import dev.shortgate.system.ShortgateProperties;
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
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The links API: create one or many, list, read, change and delete. Errors are RFC 9457 problem details. */
@RestController
@RequestMapping(path = "/api/v1/links", produces = MediaType.APPLICATION_JSON_VALUE)
class LinkController {

    static final int MAX_BATCH = 1000;
    static final String MERGE_PATCH_JSON = "application/merge-patch+json";
    /** Batch items are created a few at a time: enough to hide round trips, few enough to share the pool. */
    private static final int BATCH_CONCURRENCY = 8;

    private final LinkService links;
    private final ShortgateProperties properties;

    LinkController(LinkService links, ShortgateProperties properties) {
        this.links = links;
        this.properties = properties;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<LinkResponse>> create(@RequestBody CreateLinkRequest request, ServerWebExchange exchange) {
        return links.create(request, ApiPrincipal.of(exchange)).map(result -> {
            LinkResponse body = toResponse(result.link());
            return result.created()
                    ? ResponseEntity.created(URI.create("/api/v1/links/" + body.code())).body(body)
                    : ResponseEntity.ok(body);
        });
    }

    @PostMapping(path = "/batch", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<Map<String, List<Object>>> batch(@RequestBody BatchRequest request, ServerWebExchange exchange) {
        if (request.links() == null || request.links().isEmpty() || request.links().size() > MAX_BATCH) {
            int size = request.links() == null ? 0 : request.links().size();
            return Mono.error(Problem.INVALID_REQUEST.toException("links must hold 1 to " + MAX_BATCH
                    + " items; got " + size + ".").with("field", "links"));
        }
        ApiPrincipal caller = ApiPrincipal.of(exchange);
        List<CreateLinkRequest> items = request.links();
        return Flux.range(0, items.size())
                .flatMapSequential(i -> createItem(i, items.get(i), caller), BATCH_CONCURRENCY)
                .collectList()
                .map(results -> Map.of("results", results));
    }

    private Mono<Object> createItem(int index, CreateLinkRequest item, ApiPrincipal caller) {
        if (item == null) {
            return Mono.just(itemProblem(index, Problem.INVALID_REQUEST.toException("Item is null.")));
        }
        return links.create(item, caller)
                .<Object>map(result -> toResponse(result.link())
                        .withStatus(result.created() ? HttpStatus.CREATED.value() : HttpStatus.OK.value()))
                .onErrorResume(ProblemException.class, e -> Mono.just(itemProblem(index, e)));
    }

    private static ProblemDetail itemProblem(int index, ProblemException e) {
        ProblemDetail body = e.getBody();
        body.setProperty("index", index);
        return body;
    }

    @GetMapping
    Mono<Map<String, Object>> list(@RequestParam(required = false) String cursor,
                                   @RequestParam(required = false) Integer limit, ServerWebExchange exchange) {
        return links.list(cursor, limit, ApiPrincipal.of(exchange)).map(page -> {
            List<LinkResponse> items = page.links().stream().map(this::toResponse).toList();
            return page.nextCursor() == null
                    ? Map.of("links", items)
                    : Map.of("links", items, "nextCursor", page.nextCursor());
        });
    }

    @GetMapping("/{code}")
    Mono<LinkResponse> get(@PathVariable String code, ServerWebExchange exchange) {
        return links.get(code, ApiPrincipal.of(exchange)).map(this::toResponse);
    }

    @PatchMapping(path = "/{code}", consumes = {MERGE_PATCH_JSON, MediaType.APPLICATION_JSON_VALUE})
    Mono<LinkResponse> update(@PathVariable String code, @RequestBody Map<String, Object> patch,
                              ServerWebExchange exchange) {
        return links.update(code, patch, ApiPrincipal.of(exchange)).map(this::toResponse);
    }

    @DeleteMapping("/{code}")
    Mono<ResponseEntity<Void>> delete(@PathVariable String code, ServerWebExchange exchange) {
        return links.delete(code, ApiPrincipal.of(exchange)).thenReturn(ResponseEntity.noContent().build());
    }

    private LinkResponse toResponse(Link link) {
        return LinkResponse.of(link, properties.shortUrl(link.code()));
    }
}
