package dev.shortgate.link.edit;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Which links a caller may see and change. A link the caller may not read answers exactly as a code that does not
 * exist (404), so keys cannot probe each other's codes; one it may read but not change answers 403. A key limited
 * to one domain gets 403 {@code domain-not-allowed} for any key of another domain, before anything is looked up.
 */
@Component
public class LinkAccess {

    private final LinkRepository links;
    private final Domains domains;

    LinkAccess(LinkRepository links, Domains domains) {
        this.links = links;
        this.domains = domains;
    }

    /** The live link with this code that the caller may read, or a 404 problem. */
    public Mono<Link> readable(String code, ApiPrincipal caller) {
        return Mono.defer(() -> {
            checkDomain(code, caller);
            return live(code).filter(link -> caller.canRead(link.apiKeyId())).switchIfEmpty(notFound(code));
        });
    }

    /** Fails with 403 {@code domain-not-allowed} when the key is of a domain this caller may not use. */
    void checkDomain(String key, ApiPrincipal caller) {
        if (caller.isDomainLimited() && Link.KEY.matcher(key).matches()) {
            int domainId = DomainCodes.domainId(key);
            caller.checkDomain(
                    domainId, domains.byId(domainId).map(Domain::host).orElse(null));
        }
    }

    /** The live link with this code that the caller may change; 404 or 403 problems otherwise. */
    public Mono<Link> changeable(String code, ApiPrincipal caller) {
        return readable(code, caller).map(link -> mayChange(link, caller));
    }

    /** As {@link #changeable}, with the row version a conditional write needs. */
    Mono<LinkRepository.Versioned> changeableVersioned(String code, ApiPrincipal caller) {
        Mono<LinkRepository.Versioned> live = Link.KEY.matcher(code).matches()
                ? Mono.defer(() -> {
                    checkDomain(code, caller);
                    return links.findVersioned(code)
                            .filter(found -> found.link().deletedAt() == null);
                })
                : Mono.empty();
        return live.filter(found -> caller.canRead(found.link().apiKeyId()))
                .switchIfEmpty(notFound(code))
                .doOnNext(found -> mayChange(found.link(), caller));
    }

    private Mono<Link> live(String code) {
        return Link.KEY.matcher(code).matches()
                ? links.findByCode(code).filter(link -> link.deletedAt() == null)
                : Mono.empty();
    }

    private static Link mayChange(Link link, ApiPrincipal caller) {
        if (!caller.canChange(link.apiKeyId())) {
            throw Problem.FORBIDDEN.toException("This API key may not change this link.");
        }
        return link;
    }

    static <T> Mono<T> notFound(String code) {
        return Mono.error(() -> notFoundProblem(code));
    }

    /** 404 for a link's stored key: the problem names the code as its domain's visitors type it, never the key. */
    static ProblemException notFoundProblem(String key) {
        String code = DomainCodes.code(key);
        return Problem.LINK_NOT_FOUND
                .toException("No link has the code '" + code + "'.")
                .with("code", code);
    }
}
