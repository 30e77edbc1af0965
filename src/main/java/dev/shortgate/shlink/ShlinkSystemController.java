package dev.shortgate.shlink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.domain.DomainRedirects;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.settings.ShortgateProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Shlink's health check (open, as in Shlink), and its one default domain and that domain's not-found redirects
 * (Mercure is the events feature's).
 */
@RestController
class ShlinkSystemController {

    static final MediaType HEALTH_JSON = MediaType.parseMediaType("application/health+json");
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(2);
    private static final Map<String, String> LINKS =
            Map.of("about", "https://shlink.io", "project", "https://github.com/shlinkio/shlink");

    private final DatabaseClient db;
    private final ShortgateProperties properties;
    private final DomainRedirects redirects;
    private final Domains domains;

    ShlinkSystemController(
            DatabaseClient db, ShortgateProperties properties, DomainRedirects redirects, Domains domains) {
        this.domains = domains;
        this.db = db;
        this.properties = properties;
        this.redirects = redirects;
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

    /**
     * The default domain with its own redirects, then the domains added through {@code /api/v1/domains} (without
     * redirects of their own yet), and the configured defaults.
     */
    @GetMapping(path = "/rest/v3/domains", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> domains(ServerWebExchange exchange) {
        ApiPrincipal.of(exchange);
        ShlinkJson.Domain domain = new ShlinkJson.Domain(
                properties.baseUrl().getAuthority(), true, ShlinkJson.Redirects.of(redirects.stored()));
        List<ShlinkJson.Domain> all = new ArrayList<>();
        all.add(domain);
        for (Domain other : domains.all()) {
            if (!other.isDefault()) {
                all.add(new ShlinkJson.Domain(other.host(), false, ShlinkJson.Redirects.NONE));
            }
        }
        return Map.of(
                "domains",
                Map.<String, Object>of("data", all, "defaultRedirects", ShlinkJson.Redirects.of(redirects.defaults())));
    }

    /**
     * Sets the default domain's not-found redirects (admin keys): a field left out keeps its value, {@code null}
     * clears it. Stored in the database, applied by this pod at once and by the others within
     * {@code shortgate.not-found-redirects.refresh}. Answers the domain's redirects.
     */
    @PatchMapping(
            path = "/rest/v3/domains/redirects",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ShlinkJson.Redirects> editRedirects(@RequestBody Map<String, Object> body, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal caller = ApiPrincipal.of(exchange);
            List<String> invalid = new ArrayList<>();
            String authority = body.get("domain") instanceof String text && !text.isBlank() ? text : null;
            if (authority == null) {
                invalid.add("domain");
            }
            DomainRedirects.Redirects current = redirects.stored();
            String base = target(body, "baseUrlRedirect", current.baseUrl(), invalid);
            String regular = target(body, "regular404Redirect", current.regular404(), invalid);
            String invalidShortUrl = target(body, "invalidShortUrlRedirect", current.invalidShortUrl(), invalid);
            if (!invalid.isEmpty()) {
                throw ShlinkErrors.invalidData(invalid);
            }
            if (!ShlinkDomains.isDefault(authority, properties)) {
                throw ShlinkErrors.domainNotFound(authority);
            }
            if (!caller.isAdmin()) {
                throw ShlinkErrors.translate(
                        Problem.FORBIDDEN.toException("Only an admin key may change the domain's redirects."));
            }
            return redirects
                    .save(new DomainRedirects.Redirects(base, regular, invalidShortUrl))
                    .map(ShlinkJson.Redirects::of);
        });
    }

    /** A redirect field: its new value, or the current one when left out; a bad value is named in {@code invalid}. */
    private static String target(Map<String, Object> body, String field, String current, List<String> invalid) {
        if (!body.containsKey(field)) {
            return current;
        }
        Object value = body.get(field);
        if (value == null || (value instanceof String text && text.isEmpty())) {
            return null;
        }
        if (value instanceof String text && DomainRedirects.isRedirectTarget(text)) {
            return text;
        }
        invalid.add(field);
        return null;
    }
}
