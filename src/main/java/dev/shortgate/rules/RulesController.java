package dev.shortgate.rules;

import dev.shortgate.link.LinkService;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.problem.JsonProblems;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.web.RequestJson;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A link's redirect rules and splits ({@code /api/v1/links/{code}/rules}): read them, or replace them all at once.
 * A rule set that does not pass {@link RuleCheck} answers a problem and nothing is written; one that does is
 * stored with the link and every pod's caches follow, as for any change of the link.
 */
@RestController
@RequestMapping(path = "/api/v1/links/{code}/rules", produces = MediaType.APPLICATION_JSON_VALUE)
class RulesController {

    private static final String DOMAIN =
            "The link's domain; absent: the default domain (for a key limited to one" + " domain, its own)";

    private final LinkService links;
    private final RuleCheck check;
    private final RequestJson json;

    RulesController(LinkService links, RuleCheck check, RequestJson json) {
        this.links = links;
        this.check = check;
        this.json = json;
    }

    @GetMapping
    @ApiResponse(responseCode = "200", description = "The link's rules in priority order, and its default split")
    Mono<RulesJson> get(
            @PathVariable String code,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        return Mono.fromSupplier(() -> links.key(code, domain, ApiPrincipal.of(exchange)))
                .flatMap(key -> links.get(key, ApiPrincipal.of(exchange)))
                .map(RulesJson::of);
    }

    /**
     * Replaces the link's rules and default split; an empty body object (or empty lists) removes them. The answer
     * is the rule set as stored, with its URLs normalised. A field the rule set does not have, at any depth, answers
     * 400 {@code invalid-request} naming it, and nothing is written; what a GET answered may be sent back as it is.
     */
    @PutMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "The rules as stored")
    Mono<RulesJson> put(
            @PathVariable String code,
            @RequestBody
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @io.swagger.v3.oas.annotations.media.Content(
                                            schema =
                                                    @io.swagger.v3.oas.annotations.media.Schema(
                                                            implementation = RulesJson.class)))
                    JsonNode body,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        String key = links.key(code, domain, ApiPrincipal.of(exchange));
        return Mono.fromSupplier(() -> {
                    if (body == null || !body.isObject()) {
                        throw Problem.INVALID_REQUEST.toException("The body must be a JSON object.");
                    }
                    try {
                        return check.check(json.bind(body, RulesJson.class).toRules());
                    } catch (JacksonException e) {
                        throw JsonProblems.invalidField(e);
                    }
                })
                .flatMap(rules -> links.setRules(key, rules, ApiPrincipal.of(exchange)))
                .map(RulesJson::of);
    }
}
