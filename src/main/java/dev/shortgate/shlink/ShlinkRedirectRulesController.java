package dev.shortgate.shlink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRules;
import dev.shortgate.link.LinkService;
import dev.shortgate.rules.RuleCheck;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.http.MediaType;
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
 * Shlink's redirect rules ({@code /rest/v3/short-urls/{shortCode}/redirect-rules}): list them, or set them all
 * (POST, and PATCH as Shlink also routes it), in Shlink 5.1's shapes: {@code {defaultLongUrl, redirectRules:
 * [{longUrl, priority, conditions: [{type, matchKey, matchValue}]}]}}. Rules go through the same {@link RuleCheck}
 * as the native API's; a rule set Shlink's client sets has no splits, and setting it keeps the link's default split
 * (a rule's split, which Shlink cannot show, is listed as its first variant's URL and replaced by what is set).
 * {@code domain} names the short URL's domain as everywhere in Shlink's API ({@link ShlinkDomains#resolve}).
 */
@RestController
@RequestMapping(path = "/rest/v3/short-urls/{shortCode}/redirect-rules", produces = MediaType.APPLICATION_JSON_VALUE)
class ShlinkRedirectRulesController {

    private final LinkService links;
    private final RuleCheck check;
    private final ShortUrlController shortUrls;

    ShlinkRedirectRulesController(LinkService links, RuleCheck check, ShortUrlController shortUrls) {
        this.links = links;
        this.check = check;
        this.shortUrls = shortUrls;
    }

    @GetMapping
    Mono<Map<String, Object>> list(
            @PathVariable String shortCode, @RequestParam(required = false) String domain, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            return links.get(shortUrls.key(shortCode, domain, caller), caller)
                    .map(ShlinkRedirectRulesController::toJson)
                    .onErrorMap(ProblemException.class, e -> ShlinkErrors.translate(e, shortCode, domain));
        });
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<Map<String, Object>> set(
            @PathVariable String shortCode,
            @RequestParam(required = false) String domain,
            @RequestBody Map<String, Object> body,
            ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            String key = shortUrls.key(shortCode, domain, caller);
            List<LinkRules.Rule> rules = rules(body);
            return links.get(key, caller)
                    .map(link -> check.check(new LinkRules(
                            rules,
                            link.rules() == null ? List.of() : link.rules().variants())))
                    .flatMap(checked -> links.setRules(key, checked, caller))
                    .map(ShlinkRedirectRulesController::toJson)
                    .onErrorMap(ProblemException.class, e -> ShlinkErrors.translate(e, shortCode, domain));
        });
    }

    @PatchMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<Map<String, Object>> patch(
            @PathVariable String shortCode,
            @RequestParam(required = false) String domain,
            @RequestBody Map<String, Object> body,
            ServerWebExchange exchange) {
        return set(shortCode, domain, body, exchange);
    }

    /** Shlink's request body, as rules; Shlink's {@code invalid-data} for anything of the wrong shape. */
    static List<LinkRules.Rule> rules(Map<String, Object> body) {
        Object items = body == null ? null : body.get("redirectRules");
        if (items == null) {
            return List.of();
        }
        if (!(items instanceof List<?> list)) {
            throw ShlinkErrors.invalidData("redirectRules", "redirectRules must be a list of rules.");
        }
        List<LinkRules.Rule> rules = new ArrayList<>(list.size());
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> rule)
                    || !(rule.get("longUrl") instanceof String longUrl)
                    || !(rule.get("conditions") instanceof List<?> conditions)) {
                throw ShlinkErrors.invalidData(
                        "redirectRules", "Each redirect rule needs a longUrl and a list of conditions.");
            }
            List<LinkRules.Condition> parsed = new ArrayList<>(conditions.size());
            for (Object c : conditions) {
                if (!(c instanceof Map<?, ?> condition)
                        || !(condition.get("type") instanceof String type)
                        || !textOrNull(condition.get("matchKey"))
                        || !textOrNull(condition.get("matchValue"))) {
                    throw ShlinkErrors.invalidData(
                            "redirectRules",
                            "Each condition needs a type, and matchKey and matchValue as text or null.");
                }
                parsed.add(new LinkRules.Condition(
                        type, (String) condition.get("matchKey"), (String) condition.get("matchValue")));
            }
            rules.add(new LinkRules.Rule(longUrl, parsed, List.of()));
        }
        return rules;
    }

    private static boolean textOrNull(Object value) {
        return value == null || value instanceof String;
    }

    static Map<String, Object> toJson(Link link) {
        List<Map<String, Object>> rules = new ArrayList<>();
        if (link.rules() != null) {
            int priority = 1;
            for (LinkRules.Rule rule : link.rules().rules()) {
                List<Map<String, Object>> conditions =
                        new ArrayList<>(rule.conditions().size());
                for (LinkRules.Condition condition : rule.conditions()) {
                    Map<String, Object> json = new LinkedHashMap<>();
                    json.put("type", condition.type());
                    json.put("matchKey", condition.matchKey());
                    json.put("matchValue", condition.matchValue());
                    conditions.add(json);
                }
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("longUrl", rule.url());
                json.put("priority", priority++);
                json.put("conditions", conditions);
                rules.add(json);
            }
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("defaultLongUrl", link.url());
        answer.put("redirectRules", rules);
        return answer;
    }
}
