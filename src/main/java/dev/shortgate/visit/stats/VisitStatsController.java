package dev.shortgate.visit.stats;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.Visit;
import dev.shortgate.visit.VisitId;
import dev.shortgate.visit.Visitor;
import io.swagger.v3.oas.annotations.Parameter;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The stats API: {@code GET /api/v1/links/{code}/stats} (totals, per day and top tens over a UTC date range) and
 * {@code GET /api/v1/links/{code}/visits} (raw visits, newest first, paged by visit id). {@code visits} and
 * {@code perDay} give all, non-bot and bot visits side by side; unique visitors and the top tens leave bots out
 * unless {@code bots=true}. Everything but the raw list is read from aggregates, so it costs the same at ten visits
 * or ten million. Numbers trail the redirects by up to one {@code counts-flush-interval}.
 */
@RestController
@RequestMapping(path = "/api/v1/links/{code}", produces = MediaType.APPLICATION_JSON_VALUE)
public class VisitStatsController {

    static final String DOMAIN = "The link's domain (a host added through /api/v1/domains); absent: the default"
            + " domain, or for a key limited to one domain its own. Another domain than a limited key's answers 403"
            + " domain-not-allowed; one that was not added, 400 unknown-domain.";

    static final int TOP = 10;
    static final int DEFAULT_DAYS = 30;
    static final int MAX_DAYS = 366;
    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 1000;

    private final VisitQueries queries;
    private final Clock clock;

    private final Domains domains;

    VisitStatsController(VisitQueries queries, Clock clock, Domains domains) {
        this.queries = queries;
        this.clock = clock;
        this.domains = domains;
    }

    /**
     * Stats of one link over the UTC days {@code from} to {@code to}, both included.
     *
     * @param visits         every visit of the range, split into visits by people and by bots
     * @param uniqueVisitors estimated distinct visitors (IP and user agent) of the range, from HyperLogLog sketches
     *                       (relative standard error about 1.6%); bots left out unless {@code bots}
     * @param totalVisits    deprecated: the visits the old field counted (bots left out unless {@code bots}); read
     *                       {@code visits.nonBots} or {@code visits.total} instead
     * @param perDay         every day of the range, zero or not
     * @param topCountries   the ten labels with most visits (bots left out unless {@code bots}); likewise below
     */
    record Stats(
            String code,
            LocalDate from,
            LocalDate to,
            boolean bots,
            Visits visits,
            long uniqueVisitors,
            @Deprecated long totalVisits,
            List<DayVisits> perDay,
            List<VisitQueries.LabelCount> topCountries,
            List<VisitQueries.LabelCount> topBrowsers,
            List<VisitQueries.LabelCount> topOperatingSystems,
            List<VisitQueries.LabelCount> topDeviceClasses,
            List<VisitQueries.LabelCount> topReferrerHosts,
            List<VisitQueries.LabelCount> topDestinations) {}

    /** Shlink's summary shape: {@code total} = {@code nonBots} + {@code bots}. */
    public record Visits(long total, long nonBots, long bots) {
        public static Visits of(long total, long bots) {
            return new Visits(total, total - bots, bots);
        }
    }

    /**
     * A UTC day's visits. {@code visits} is deprecated: what the old field counted (bots left out unless
     * {@code bots}); read {@code nonBots} or {@code total} instead.
     */
    record DayVisits(
            LocalDate date,
            long total,
            long nonBots,
            long bots,
            @Deprecated long visits) {}

    /** One page of visits; {@code nextCursor} is null on the last page. */
    record VisitPage(List<VisitView> visits, String nextCursor) {}

    /**
     * A visit as the API shows it: the id in its 16-character form, then the {@link Visitor} fields; the client id
     * stays internal.
     */
    record VisitView(
            String id, Instant visitedAt, @JsonUnwrapped Visitor visitor, String redirectUrl) {

        public static VisitView of(Visit v) {
            return new VisitView(VisitId.toText(v.id()), v.visitedAt(), v.visitor(), v.redirectUrl());
        }
    }

    @GetMapping("/stats")
    Mono<Stats> stats(
            @PathVariable String code,
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(required = false) String bots,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        ApiPrincipal caller = ApiPrincipal.of(exchange);
        String key = key(code, domain, caller);
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        LocalDate end = to == null ? today : date("to", to);
        LocalDate start = from == null ? end.minusDays(DEFAULT_DAYS - 1) : date("from", from);
        boolean withBots = flag("bots", bots);
        if (start.isAfter(end)) {
            throw invalid("from", "from (" + start + ") must not be after to (" + end + ").");
        }
        if (ChronoUnit.DAYS.between(start, end) + 1 > MAX_DAYS) {
            throw invalid("from", "The range may span at most " + MAX_DAYS + " days.");
        }
        return visible(code, key, caller)
                .then(Mono.zip(
                        queries.perDay(key, start, end).collectList(),
                        queries.uniqueVisitors(key, start, end, withBots),
                        queries.top(key, start, end, withBots, TOP)))
                .map(t -> {
                    List<DayVisits> days = everyDay(start, end, t.getT1(), withBots);
                    long total = days.stream().mapToLong(DayVisits::total).sum();
                    long botVisits = days.stream().mapToLong(DayVisits::bots).sum();
                    Map<Dimension, List<VisitQueries.LabelCount>> top = t.getT3();
                    return new Stats(
                            code,
                            start,
                            end,
                            withBots,
                            Visits.of(total, botVisits),
                            t.getT2(),
                            withBots ? total : total - botVisits,
                            days,
                            top.getOrDefault(Dimension.COUNTRY, List.of()),
                            top.getOrDefault(Dimension.BROWSER, List.of()),
                            top.getOrDefault(Dimension.OS, List.of()),
                            top.getOrDefault(Dimension.DEVICE_CLASS, List.of()),
                            top.getOrDefault(Dimension.REFERRER_HOST, List.of()),
                            top.getOrDefault(Dimension.DESTINATION, List.of()));
                });
    }

    @GetMapping("/visits")
    Mono<VisitPage> visits(
            @PathVariable String code,
            @RequestParam(required = false) String limit,
            @RequestParam(required = false) String cursor,
            @Parameter(description = DOMAIN) @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        ApiPrincipal caller = ApiPrincipal.of(exchange);
        String key = key(code, domain, caller);
        int size = limit == null ? DEFAULT_LIMIT : limit(limit);
        byte[] after;
        try {
            after = cursor == null ? null : VisitId.fromText(cursor);
        } catch (IllegalArgumentException e) {
            throw invalid("cursor", "cursor is not a visit id: " + e.getMessage() + ".");
        }
        return visible(code, key, caller)
                .then(queries.visits(key, after, size).map(VisitView::of).collectList())
                .map(page -> new VisitPage(
                        page,
                        page.size() < size ? null : page.get(page.size() - 1).id()));
    }

    /** Completes when the link exists and this caller may read it; a 404 otherwise, as if it did not exist. */
    private Mono<Void> visible(String code, String key, ApiPrincipal caller) {
        Mono<Boolean> exists = Link.CODE.matcher(code).matches()
                ? queries.liveLinkOwner(key)
                        .map(owner -> caller.canRead(owner.orElse(null)))
                        .defaultIfEmpty(false)
                : Mono.just(false);
        return exists.flatMap(found -> found
                ? Mono.<Void>empty()
                : Mono.error(Problem.LINK_NOT_FOUND
                        .toException("No link has the code '" + code + "'.")
                        .with("code", code)));
    }

    /**
     * The key the link of {@code code} on {@code domain} (absent: the default one, or the caller's own for a key
     * limited to one domain) is stored under; 403 {@code domain-not-allowed} for a domain the key may not use.
     */
    private String key(String code, String domain, ApiPrincipal caller) {
        return Link.CODE.matcher(code).matches() ? DomainCodes.key(domains.forCaller(domain, caller), code) : code;
    }

    private static List<DayVisits> everyDay(
            LocalDate start, LocalDate end, List<VisitQueries.DayCount> counts, boolean withBots) {
        Map<LocalDate, VisitQueries.DayCount> byDay = new HashMap<>();
        for (VisitQueries.DayCount count : counts) {
            byDay.put(count.date(), count);
        }
        List<DayVisits> days = new ArrayList<>();
        for (LocalDate day = start; !day.isAfter(end); day = day.plusDays(1)) {
            VisitQueries.DayCount count = byDay.get(day);
            long total = count == null ? 0 : count.visits();
            long bots = count == null ? 0 : count.botVisits();
            days.add(new DayVisits(day, total, total - bots, bots, withBots ? total : total - bots));
        }
        return days;
    }

    private static LocalDate date(String field, String value) {
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw invalid(field, field + " must be a date in the form YYYY-MM-DD, got '" + value + "'.");
        }
    }

    private static boolean flag(String field, String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw invalid(field, field + " must be true or false, got '" + value + "'.");
    }

    private static int limit(String value) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= 1 && parsed <= MAX_LIMIT) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw invalid("limit", "limit must be a whole number from 1 to " + MAX_LIMIT + ", got '" + value + "'.");
    }

    private static ProblemException invalid(String field, String detail) {
        return Problem.INVALID_REQUEST.toException(detail).with("field", field);
    }
}
