package dev.shortgate.visit.stats;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.Domains;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.visit.orphan.OrphanVisits;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Traffic broken down by short domain: {@code GET /api/v1/visits/domains}, the visits of each domain's links and its
 * orphan visits over a UTC date range, exact, from the daily counts. Admin and read keys of every domain see every
 * domain (the default one first, then in the order they were added); a key limited to one domain sees its own, and
 * {@code domain} narrows the answer to one.
 */
@RestController
class DomainStatsController {

    static final String DOMAIN = "Only this short domain (a host added through /api/v1/domains, or the default"
            + " domain's host); absent: every domain, or for a key limited to one domain its own. Another domain than a"
            + " limited key's answers 403 domain-not-allowed; one that was not added, 400 unknown-domain.";

    /**
     * Traffic of the domains over the UTC days {@code from} to {@code to}, both included.
     *
     * @param domains each domain asked for, zero or not
     */
    record DomainStats(LocalDate from, LocalDate to, List<DomainVisits> domains) {}

    /**
     * One domain's traffic.
     *
     * @param domain       its host
     * @param isDefault    whether it is the default domain (the host of {@code shortgate.base-url})
     * @param visits       visits of its links, split into visits by people and by bots
     * @param orphanVisits requests to it that reached no link (unknown codes, the base URL, other 404s); a host
     *                     that is none of the domains counts as the default domain
     */
    record DomainVisits(
            String domain,
            boolean isDefault,
            VisitStatsController.Visits visits,
            VisitStatsController.Visits orphanVisits) {}

    private final VisitQueries queries;
    private final OrphanVisits orphans;
    private final Domains domains;
    private final Clock clock;

    DomainStatsController(VisitQueries queries, OrphanVisits orphans, Domains domains, Clock clock) {
        this.queries = queries;
        this.orphans = orphans;
        this.domains = domains;
        this.clock = clock;
    }

    @Operation(
            summary = "Visits and orphan visits per short domain",
            description = "Each domain's link visits and orphan visits (unknown codes, the base URL, other 404s) over"
                    + " a UTC date range of at most 366 days, bots apart, exact (from the daily counts). Every domain,"
                    + " the default one first, or one with domain; a key limited to one domain sees its own.")
    @GetMapping(path = "/api/v1/visits/domains", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<DomainStats> byDomain(
            @Parameter(description = "First UTC day, YYYY-MM-DD; default: 29 days before to")
                    @RequestParam(required = false)
                    String from,
            @Parameter(description = "Last UTC day, YYYY-MM-DD; default: today") @RequestParam(required = false)
                    String to,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        ApiPrincipal caller = ApiPrincipal.of(exchange).requireOnDomain(ApiScope.ADMIN, ApiScope.READ);
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        LocalDate end = to == null ? today : date("to", to);
        LocalDate start = from == null ? end.minusDays(VisitStatsController.DEFAULT_DAYS - 1) : date("from", from);
        if (start.isAfter(end)) {
            throw invalid("from", "from (" + start + ") must not be after to (" + end + ").");
        }
        if (ChronoUnit.DAYS.between(start, end) + 1 > VisitStatsController.MAX_DAYS) {
            throw invalid("from", "The range may span at most " + VisitStatsController.MAX_DAYS + " days.");
        }
        List<Domain> asked = domain == null && !caller.isDomainLimited()
                ? domains.all()
                : List.of(domains.forCaller(domain, caller));
        Integer only = asked.size() == 1 ? asked.get(0).id() : null;
        return Mono.zip(queries.visitsByDomain(start, end, only), orphans.totalsByDomain(start, end))
                .map(both -> {
                    Map<Integer, long[]> visits = both.getT1();
                    Map<Integer, OrphanVisits.Totals> orphanVisits = both.getT2();
                    List<DomainVisits> rows = new ArrayList<>(asked.size());
                    for (Domain d : asked) {
                        long[] v = visits.getOrDefault(d.id(), new long[2]);
                        OrphanVisits.Totals o = orphanVisits.getOrDefault(d.id(), new OrphanVisits.Totals(0, 0));
                        rows.add(new DomainVisits(
                                d.host(),
                                d.isDefault(),
                                VisitStatsController.Visits.of(v[0], v[1]),
                                VisitStatsController.Visits.of(o.visits(), o.botVisits())));
                    }
                    return new DomainStats(start, end, rows);
                });
    }

    private static LocalDate date(String field, String value) {
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw invalid(field, field + " must be a date in the form YYYY-MM-DD, got '" + value + "'.");
        }
    }

    private static ProblemException invalid(String field, String detail) {
        return Problem.INVALID_REQUEST.toException(detail).with("field", field);
    }
}
