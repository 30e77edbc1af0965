package dev.shortgate.link.domain;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.Domains;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.problem.Problem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * A domain's settings (admin only): its three not-found redirects and the redirect status a create on it gets when
 * it names none. {@code GET} reads them from memory; {@code PUT} replaces all four (a field left out or
 * {@code null} is none) after checking every one, so a bad value writes nothing.
 */
@RestController
@RequestMapping(path = "/api/v1/domains/{domain}/settings", produces = MediaType.APPLICATION_JSON_VALUE)
class DomainSettingsController {

    private final Domains domains;
    private final DomainRedirects settings;

    DomainSettingsController(Domains domains, DomainRedirects settings) {
        this.domains = domains;
        this.settings = settings;
    }

    /**
     * A domain's settings as the API takes and shows them.
     *
     * @param domain                  the domain's host (answers only)
     * @param baseUrlRedirect         where {@code GET /} on the domain goes; {@code null}: the configured default, or
     *                                404
     * @param regular404Redirect      where another path nothing serves goes, as above
     * @param invalidShortUrlRedirect where an unknown, disabled or deleted code goes, as above
     * @param defaultRedirectStatus   301, 302, 307 or 308: the status of a create on the domain that names none;
     *                                {@code null} in a request means 302
     */
    record DomainSettings(
            String domain,
            String baseUrlRedirect,
            String regular404Redirect,
            String invalidShortUrlRedirect,
            Integer defaultRedirectStatus) {

        static DomainSettings of(Domain domain, DomainRedirects.Settings settings) {
            DomainRedirects.Redirects redirects = settings.redirects();
            return new DomainSettings(
                    domain.host(),
                    redirects.baseUrl(),
                    redirects.regular404(),
                    redirects.invalidShortUrl(),
                    settings.redirectStatus());
        }
    }

    @GetMapping
    @Operation(summary = "A domain's not-found redirects and default redirect status")
    @ApiResponse(responseCode = "200", description = "The domain's own settings; null redirects fall back")
    Mono<DomainSettings> read(@PathVariable String domain, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
            return known(domain).map(found -> DomainSettings.of(found, settings.settings(found.id())));
        });
    }

    @PutMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Replace a domain's not-found redirects and default redirect status")
    @ApiResponse(responseCode = "200", description = "The settings as stored, applied on this pod at once")
    Mono<DomainSettings> replace(
            @PathVariable String domain, @RequestBody DomainSettings request, ServerWebExchange exchange) {
        return Mono.defer(() -> {
            ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
            DomainRedirects.Settings next = new DomainRedirects.Settings(
                    new DomainRedirects.Redirects(
                            settings.target("baseUrlRedirect", request.baseUrlRedirect()),
                            settings.target("regular404Redirect", request.regular404Redirect()),
                            settings.target("invalidShortUrlRedirect", request.invalidShortUrlRedirect())),
                    DomainRedirects.checkStatus(request.defaultRedirectStatus()));
            return known(domain)
                    .flatMap(found -> settings.save(found, next).map(saved -> DomainSettings.of(found, saved)));
        });
    }

    /** The domain of a host, or a {@code domain-not-found} problem. */
    private Mono<Domain> known(String host) {
        return domains.findFresh(host)
                .switchIfEmpty(Mono.error(
                        () -> Problem.DOMAIN_NOT_FOUND.toException("No domain " + host + " on this gateway.")));
    }
}
