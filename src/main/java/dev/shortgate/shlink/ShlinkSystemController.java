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
import dev.shortgate.system.problem.ProblemException;
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
 * Shlink's health check (open, as in Shlink), and its domains and their not-found redirects (Mercure is the events
 * feature's).
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
     * Every domain with its own redirects (the default one first, then those added through {@code /api/v1/domains}),
     * and the configured defaults, which apply where a domain has none of its own. A key limited to one domain sees
     * that domain only, as Shlink lists a {@code DOMAIN_SPECIFIC} key's (and nothing once its domain was removed).
     */
    @GetMapping(path = "/rest/v3/domains", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> domains(ServerWebExchange exchange) {
        ApiPrincipal caller = ApiPrincipal.of(exchange);
        List<ShlinkJson.Domain> all = new ArrayList<>();
        for (Domain domain : domains.all()) {
            if (!caller.mayUse(domain.id())) {
                continue;
            }
            all.add(
                    domain.isDefault()
                            ? new ShlinkJson.Domain(
                                    properties.baseUrl().getAuthority(),
                                    true,
                                    ShlinkJson.Redirects.of(redirects.stored()))
                            : new ShlinkJson.Domain(
                                    domain.host(),
                                    false,
                                    ShlinkJson.Redirects.of(
                                            redirects.settings(domain.id()).redirects())));
        }
        return Map.of(
                "domains",
                Map.<String, Object>of("data", all, "defaultRedirects", ShlinkJson.Redirects.of(redirects.defaults())));
    }

    /**
     * Sets a domain's not-found redirects (admin keys): the default domain (its authority, or {@code DEFAULT}) or one
     * added through {@code /api/v1/domains}; any other is {@code domain-not-found} and nothing is written (Shlink
     * would register it). A field left out keeps its value, {@code null} clears it; each URL passes the URL policy as
     * a link's does. Stored in the database, applied by this pod at once and by the others within
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
            Edit base = edit(body, "baseUrlRedirect", invalid);
            Edit regular = edit(body, "regular404Redirect", invalid);
            Edit invalidShortUrl = edit(body, "invalidShortUrlRedirect", invalid);
            if (!invalid.isEmpty()) {
                throw ShlinkErrors.invalidData(invalid);
            }
            Mono<Domain> domain = ShlinkDomains.isDefault(authority, properties)
                    ? Mono.just(domains.defaultDomain())
                    : domains.findFresh(authority);
            return domain.switchIfEmpty(Mono.error(() -> ShlinkErrors.domainNotFound(authority)))
                    .flatMap(found -> {
                        if (!caller.isAdmin()) {
                            return Mono.error(ShlinkErrors.translate(Problem.FORBIDDEN.toException(
                                    "Only an admin key may change the domain's redirects.")));
                        }
                        DomainRedirects.Settings current = redirects.settings(found.id());
                        DomainRedirects.Redirects now = current.redirects();
                        DomainRedirects.Redirects next = new DomainRedirects.Redirects(
                                base.or(now.baseUrl()),
                                regular.or(now.regular404()),
                                invalidShortUrl.or(now.invalidShortUrl()));
                        return redirects.save(
                                found, new DomainRedirects.Settings(next, current.defaultRedirectStatus()));
                    })
                    .map(saved -> ShlinkJson.Redirects.of(saved.redirects()));
        });
    }

    /** A redirect field of the body: left out (keep the current value), or its new value ({@code null} clears). */
    private record Edit(boolean given, String value) {

        String or(String current) {
            return given ? value : current;
        }
    }

    /** A redirect field, checked as a link's URL is; a bad value is named in {@code invalid}. */
    private Edit edit(Map<String, Object> body, String field, List<String> invalid) {
        if (!body.containsKey(field)) {
            return new Edit(false, null);
        }
        Object value = body.get(field);
        if (value == null || (value instanceof String text && text.isEmpty())) {
            return new Edit(true, null);
        }
        if (value instanceof String text) {
            try {
                return new Edit(true, redirects.target(field, text));
            } catch (ProblemException refused) {
                // named in invalidElements below, as Shlink names a bad field
            }
        }
        invalid.add(field);
        return new Edit(true, null);
    }
}
