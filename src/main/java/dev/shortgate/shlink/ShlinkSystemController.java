package dev.shortgate.shlink;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.settings.ShortgateProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Shlink's health check (open, as in Shlink), its one default domain, and Mercure (not configured: 501). */
@RestController
class ShlinkSystemController {

    static final MediaType HEALTH_JSON = MediaType.parseMediaType("application/health+json");
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(2);
    private static final Map<String, String> LINKS =
            Map.of("about", "https://shlink.io", "project", "https://github.com/shlinkio/shlink");

    private final DatabaseClient db;
    private final ShortgateProperties properties;

    ShlinkSystemController(DatabaseClient db, ShortgateProperties properties) {
        this.db = db;
        this.properties = properties;
    }

    /** {@code pass} when the database answers within two seconds, else 503 {@code fail}, as Shlink does. */
    @GetMapping(path = {"/rest/health", "/rest/v3/health"})
    Mono<ResponseEntity<Map<String, Object>>> health() {
        return db.sql("SELECT 1")
                .map(row -> true)
                .first()
                .defaultIfEmpty(true)
                .timeout(HEALTH_TIMEOUT)
                .onErrorReturn(false)
                .map(up -> ResponseEntity.status(up ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
                        .contentType(HEALTH_JSON)
                        .body(Map.<String, Object>of(
                                "status", up ? "pass" : "fail", "version", ShlinkProperties.VERSION, "links", LINKS)));
    }

    @GetMapping(path = "/rest/v3/domains", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> domains(ServerWebExchange exchange) {
        ApiPrincipal.of(exchange);
        ShlinkJson.Domain domain =
                new ShlinkJson.Domain(properties.baseUrl().getAuthority(), true, ShlinkJson.Redirects.NONE);
        return Map.of(
                "domains",
                Map.<String, Object>of("data", List.of(domain), "defaultRedirects", ShlinkJson.Redirects.NONE));
    }

    @GetMapping(path = "/rest/v3/mercure-info", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Void> mercureInfo(ServerWebExchange exchange) {
        ApiPrincipal.of(exchange);
        return Mono.error(ShlinkErrors.mercureNotConfigured());
    }
}
