package dev.shortgate.domain;

import java.net.URI;
import java.util.List;
import java.util.Map;

import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
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

/** Admin endpoints for short domains: add, list, remove. */
@RestController
@RequestMapping(path = "/api/v1/domains", produces = MediaType.APPLICATION_JSON_VALUE)
class DomainController {

    private final Domains domains;

    DomainController(Domains domains) {
        this.domains = domains;
    }

    record AddDomainRequest(String domain) {}

    /** A domain as the API shows it. */
    record DomainResponse(String domain, boolean isDefault, String createdAt) {

        static DomainResponse of(Domain domain) {
            return new DomainResponse(
                    domain.host(),
                    domain.isDefault(),
                    domain.createdAt() == null ? null : domain.createdAt().toString());
        }
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<DomainResponse>> add(@RequestBody AddDomainRequest request, ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        if (request.domain() == null) {
            return Mono.error(
                    Problem.INVALID_DOMAIN.toException("domain is required.").with("field", "domain"));
        }
        return domains.add(request.domain())
                .map(added -> ResponseEntity.created(URI.create("/api/v1/domains/" + added.host()))
                        .body(DomainResponse.of(added)));
    }

    @GetMapping
    Map<String, List<DomainResponse>> list(ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        return Map.of("domains", domains.all().stream().map(DomainResponse::of).toList());
    }

    @DeleteMapping("/{domain}")
    Mono<ResponseEntity<Void>> remove(@PathVariable String domain, ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        return domains.remove(domain).thenReturn(ResponseEntity.noContent().build());
    }
}
