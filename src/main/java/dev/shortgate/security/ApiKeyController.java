package dev.shortgate.security;

import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Admin endpoints for API keys: create (the key is shown once), list (never the keys), revoke. A key may be limited
 * to one short domain ({@code domain}), as Shlink's {@code DOMAIN_SPECIFIC} role.
 */
@RestController
@RequestMapping(path = "/api/v1/keys", produces = MediaType.APPLICATION_JSON_VALUE)
class ApiKeyController {

    private final ApiKeys keys;
    private final KeyDomains domains;

    ApiKeyController(ApiKeys keys, KeyDomains domains) {
        this.keys = keys;
        this.domains = domains;
    }

    /**
     * @param domain the one domain the key sees and changes, or absent for every domain; an {@code admin} key limited
     *               to a domain manages all that domain's links but none of the admin-only endpoints
     */
    record CreateKeyRequest(String name, String scope, String domain) {}

    /** A key as this API shows it: {@code domain} is its domain's host, or {@code null} for every domain. */
    record KeyResponse(long id, String name, String scope, String domain, Instant createdAt, Instant revokedAt) {}

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "201", description = "Created; the body holds the key, shown this once")
    Mono<ResponseEntity<Map<String, Object>>> create(
            @RequestBody CreateKeyRequest request, ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        ApiScope scope;
        try {
            scope = ApiScope.parse(request.scope() == null ? "" : request.scope());
        } catch (IllegalArgumentException e) {
            return Mono.error(Problem.INVALID_REQUEST
                    .toException("scope must be admin, create or read.")
                    .with("field", "scope"));
        }
        Integer domainId;
        try {
            domainId = request.domain() == null ? null : domains.idOf(request.domain());
        } catch (ProblemException e) {
            return Mono.error(e);
        }
        return keys.create(request.name(), scope, domainId).map(created -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", created.info().id());
            body.put("name", created.info().name());
            body.put("scope", created.info().scope());
            body.put("domain", domainId == null ? null : domains.hostOfId(domainId));
            body.put("createdAt", created.info().createdAt());
            body.put("key", created.key());
            return ResponseEntity.created(
                            URI.create("/api/v1/keys/" + created.info().id()))
                    .body(body);
        });
    }

    @GetMapping
    Mono<Map<String, List<KeyResponse>>> list(ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        return keys.list()
                .map(info -> new KeyResponse(
                        info.id(),
                        info.name(),
                        info.scope(),
                        info.domainId() == null ? null : domains.hostOfId(info.domainId()),
                        info.createdAt(),
                        info.revokedAt()))
                .collectList()
                .map(all -> Map.of("keys", all));
    }

    @DeleteMapping("/{id}")
    Mono<ResponseEntity<Void>> revoke(@PathVariable long id, ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        return keys.revoke(id).thenReturn(ResponseEntity.noContent().build());
    }
}
