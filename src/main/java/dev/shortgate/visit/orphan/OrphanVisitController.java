package dev.shortgate.visit.orphan;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.shortgate.domain.Domains;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.VisitId;
import dev.shortgate.visit.Visitor;
import dev.shortgate.visit.stats.VisitStatsController;
import io.swagger.v3.oas.annotations.Parameter;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Orphan visits in Shortgate's API: {@code GET /api/v1/visits/orphan} (their exact totals, and their raw rows newest
 * first, paged by visit id) and {@code DELETE /api/v1/visits/orphan}. They belong to no link, so admin and read keys
 * see them and only admin keys of every domain delete them. Each records the short domain its request came to: a
 * {@code domain} query shows one domain's, and a key limited to one domain sees only its own.
 */
@RestController
@RequestMapping(path = "/api/v1/visits/orphan", produces = MediaType.APPLICATION_JSON_VALUE)
class OrphanVisitController {

    static final String DOMAIN = "Only the orphan visits of this short domain (a host added through /api/v1/domains, or"
            + " the default domain's host); absent: every domain's, or for a key limited to one domain its own. Another"
            + " domain than a limited key's answers 403 domain-not-allowed; one that was not added, 400 unknown-domain.";

    private final OrphanVisits orphans;
    private final Domains domains;

    OrphanVisitController(OrphanVisits orphans, Domains domains) {
        this.orphans = orphans;
        this.domains = domains;
    }

    /**
     * A page of orphan visits and the totals.
     *
     * @param totals     every orphan visit counted (all time, every type) of the domain asked for (of every domain
     *                   when none is), exact: from the per-day counts
     * @param visits     raw rows, newest first; shed under overload and deleted after {@code raw-retention}
     * @param nextCursor the cursor of the next page, or {@code null} on the last
     */
    record OrphanPage(VisitStatsController.Visits totals, List<OrphanView> visits, String nextCursor) {}

    /**
     * An orphan visit as the API shows it: its id in the 16-character form, the short domain its request came to
     * (its host; {@code null} for a domain removed since), the path and query asked for, then the {@link Visitor}
     * fields.
     */
    record OrphanView(
            String id,
            String type,
            String domain,
            String path,
            Instant visitedAt,
            @JsonUnwrapped Visitor visitor) {

        static OrphanView of(OrphanVisits.Row r, String domain) {
            return new OrphanView(r.idText(), r.type().value(), domain, r.path(), r.visitedAt(), r.visitor());
        }
    }

    /** How many orphan visits a delete removed (raw rows; the counts are reset too). */
    record Deleted(long deletedVisits) {}

    @GetMapping
    Mono<OrphanPage> list(
            @RequestParam(required = false) String type,
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(required = false) String bots,
            @RequestParam(required = false) String limit,
            @RequestParam(required = false) String cursor,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        ApiPrincipal caller = ApiPrincipal.of(exchange).requireOnDomain(ApiScope.ADMIN, ApiScope.READ);
        Integer domainId = domain == null && !caller.isDomainLimited()
                ? null
                : domains.forCaller(domain, caller).id();
        OrphanVisitType only = type == null ? null : OrphanVisitType.parse(type);
        if (type != null && only == null) {
            throw invalid("type", "type must be invalid_short_url, base_url or regular_404, got '" + type + "'.");
        }
        Instant start = from == null ? null : day("from", from).atStartOfDay().toInstant(ZoneOffset.UTC);
        Instant end = to == null
                ? null
                : day("to", to)
                        .plusDays(1)
                        .atStartOfDay()
                        .toInstant(ZoneOffset.UTC)
                        .minusMillis(1);
        boolean withBots = bots == null || bots.equals("true");
        if (!withBots && !bots.equals("false")) {
            throw invalid("bots", "bots must be true or false, got '" + bots + "'.");
        }
        int size = limit == null ? VisitStatsController.DEFAULT_LIMIT : limit(limit);
        if (cursor != null) {
            try {
                VisitId.fromText(cursor);
            } catch (IllegalArgumentException e) {
                throw invalid("cursor", "cursor is not a visit id: " + e.getMessage() + ".");
            }
        }
        OrphanVisits.Filter filter = new OrphanVisits.Filter(only, start, end, !withBots, domainId);
        return Mono.zip(
                        domainId == null ? orphans.totals() : orphans.totals(domainId),
                        orphans.after(filter, cursor, size)
                                .map(row -> OrphanView.of(row, domains.hostOfId(row.domainId())))
                                .collectList())
                .map(both -> {
                    List<OrphanView> page = both.getT2();
                    return new OrphanPage(
                            VisitStatsController.Visits.of(
                                    both.getT1().visits(), both.getT1().botVisits()),
                            page,
                            page.size() < size
                                    ? null
                                    : page.get(page.size() - 1).id());
                });
    }

    @DeleteMapping
    Mono<Deleted> delete(ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        return orphans.deleteAll().map(Deleted::new);
    }

    private static LocalDate day(String field, String value) {
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw invalid(field, field + " must be a date in the form YYYY-MM-DD, got '" + value + "'.");
        }
    }

    private static int limit(String value) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= 1 && parsed <= VisitStatsController.MAX_LIMIT) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw invalid(
                "limit",
                "limit must be a whole number from 1 to " + VisitStatsController.MAX_LIMIT + ", got '" + value + "'.");
    }

    private static ProblemException invalid(String field, String detail) {
        return Problem.INVALID_REQUEST.toException(detail).with("field", field);
    }
}
