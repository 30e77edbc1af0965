package dev.shortgate.link;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.shortgate.codegen.CodeGenerator;
import dev.shortgate.codegen.CodegenProperties;
import dev.shortgate.domain.Domain;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.domain.DomainRedirects;
import dev.shortgate.link.store.LinkTags;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.security.UrlPolicy;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.stereotype.Component;

/** Checks a create request and turns it into the link it asks for; the rules every field of a link follows. */
@Component
public class LinkRequests {

    /** First path segments that must stay free for the service itself (compared case-insensitively). */
    static final Set<String> RESERVED = Set.of(
            "api",
            "actuator",
            "favicon.ico",
            "robots.txt",
            "health",
            "metrics",
            "prometheus",
            "static",
            "assets",
            "admin",
            "login",
            "logout",
            "well-known",
            ".well-known",
            "sitemap.xml",
            "index.html",
            "error",
            "rest");

    static final Set<Integer> REDIRECT_STATUSES = Set.of(301, 302, 307, 308);

    private final UrlPolicy urlPolicy;
    private final CodegenProperties codegen;
    private final Domains domains;
    private final DomainRedirects settings;
    private final Clock clock;

    LinkRequests(
            UrlPolicy urlPolicy, CodegenProperties codegen, Domains domains, DomainRedirects settings, Clock clock) {
        this.urlPolicy = urlPolicy;
        this.codegen = codegen;
        this.domains = domains;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * A create request checked: the link it asks for (no code yet unless it is an alias), the code length, and the
     * tags it gets if this create makes it ({@link LinkTags#normalize}).
     */
    public record Prepared(Link link, int length, int domainId, List<String> tags) {

        public Prepared {
            tags = List.copyOf(tags);
        }

        /** A create without tags. */
        public Prepared(Link link, int length, int domainId) {
            this(link, length, domainId, List.of());
        }

        /** A create on the default domain, without tags. */
        public Prepared(Link link, int length) {
            this(link, length, Domains.DEFAULT_ID);
        }

        /** Whether the link goes to the default domain, where concurrent creates are grouped. */
        public boolean onDefaultDomain() {
            return domainId == Domains.DEFAULT_ID;
        }
    }

    public Prepared prepare(CreateLinkRequest request, ApiPrincipal caller) {
        caller.requireOnDomain(ApiScope.ADMIN, ApiScope.CREATE);
        Domain domain = domains.forCaller(request.domain(), caller);
        String url = urlPolicy.normalize(request.url());
        Instant now = now();
        if (request.expiresAt() != null && !request.expiresAt().isAfter(now)) {
            throw invalid("expiresAt", "expiresAt must be in the future.");
        }
        if (request.maxVisits() != null && request.maxVisits() < 1) {
            throw invalid("maxVisits", "maxVisits must be a positive number.");
        }
        // A create that names no status gets its domain's default (302 unless an admin set another one).
        int status = request.redirectStatus() == null ? settings.redirectStatus(domain.id()) : request.redirectStatus();
        checkStatus(status);
        Instant expiresAt =
                request.expiresAt() == null ? null : request.expiresAt().truncatedTo(ChronoUnit.MILLIS);
        List<String> tags = LinkTags.normalize(request.tags())
                .orElseThrow(() -> invalid(
                        "tags",
                        "tags must be a list of texts of at most " + LinkTags.MAX_LENGTH + " characters each."));
        boolean disabled = Boolean.TRUE.equals(request.disabled());
        boolean forwardQuery = Boolean.TRUE.equals(request.forwardQuery());
        String alias = null;
        int length;
        if (request.alias() != null) {
            if (request.length() != null) {
                throw invalid("length", "Give either alias or length, not both.");
            }
            alias = checkAlias(request.alias());
            length = alias.length();
            String key = DomainCodes.key(domain, alias);
            if (key.length() > DomainCodes.MAX_KEY_LENGTH) {
                throw Problem.INVALID_ALIAS
                        .toException("alias must be at most "
                                + (DomainCodes.MAX_KEY_LENGTH
                                        - DomainCodes.prefix(domain.id()).length())
                                + " characters on " + domain.host() + ".")
                        .with("field", "alias");
            }
            alias = key;
        } else {
            length = request.length() == null ? codegen.defaultLength() : request.length();
            if (length < CodeGenerator.MIN_LENGTH || length > CodeGenerator.MAX_LENGTH) {
                throw Problem.INVALID_LENGTH
                        .toException("length must be between " + CodeGenerator.MIN_LENGTH + " and "
                                + CodeGenerator.MAX_LENGTH + ", got " + length + ".")
                        .with("field", "length");
            }
        }
        Link link = new Link(
                alias,
                url,
                status,
                alias != null,
                now,
                expiresAt,
                request.maxVisits(),
                disabled,
                forwardQuery,
                caller.keyId(),
                null);
        return new Prepared(link, length, domain.id(), tags);
    }

    /** The status a new link on the domain with this id gets when it names none (the domain's default). */
    public int defaultRedirectStatus(int domainId) {
        return settings.redirectStatus(domainId);
    }

    /** {@code url} checked and normalised by the URL policy. */
    public String url(String url) {
        return urlPolicy.normalize(url);
    }

    public static void checkStatus(int status) {
        if (!REDIRECT_STATUSES.contains(status)) {
            throw invalid("redirectStatus", "redirectStatus must be 301, 302, 307 or 308.");
        }
    }

    /** {@code alias} when it is a valid chosen code (syntax, not reserved), or a 400 problem saying why not. */
    public static String checkAlias(String alias) {
        if (!Link.CODE.matcher(alias).matches()) {
            throw Problem.INVALID_ALIAS
                    .toException("alias must be 1 to 64 characters of A-Z, a-z, 0-9, '_' and '-'.")
                    .with("field", "alias");
        }
        if (RESERVED.contains(alias.toLowerCase(Locale.ROOT))) {
            throw Problem.INVALID_ALIAS
                    .toException("alias '" + alias + "' is reserved.")
                    .with("field", "alias");
        }
        return alias;
    }

    public static ProblemException invalid(String field, String detail) {
        return Problem.INVALID_REQUEST.toException(detail).with("field", field);
    }

    public Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
