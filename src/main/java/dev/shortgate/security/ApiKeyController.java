package dev.shortgate.security;

import java.net.URI;
import java.util.List;
import java.util.Map;

import dev.shortgate.system.problem.Problem;
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

/** Admin endpoints for API keys: create (the key is shown once), list (never the keys), revoke. */
@RestController
@RequestMapping(path = "/api/v1/keys", produces = MediaType.APPLICATION_JSON_VALUE)
class ApiKeyController {

    private final ApiKeys keys;

    ApiKeyController(ApiKeys keys) {
        this.keys = keys;
    }

    record CreateKeyRequest(String name, String scope) {}

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
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
        return keys.create(request.name(), scope).map(created -> ResponseEntity.created(
                        URI.create("/api/v1/keys/" + created.info().id()))
                .body(Map.of(
                        "id",
                        created.info().id(),
                        "name",
                        created.info().name(),
                        "scope",
                        created.info().scope(),
                        "createdAt",
                        created.info().createdAt(),
                        "key",
                        created.key())));
    }

    @GetMapping
    Mono<Map<String, List<ApiKeys.KeyInfo>>> list(ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        return keys.list().collectList().map(all -> Map.of("keys", all));
    }

    @DeleteMapping("/{id}")
    Mono<ResponseEntity<Void>> revoke(@PathVariable long id, ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        return keys.revoke(id).thenReturn(ResponseEntity.noContent().build());
    }
}
