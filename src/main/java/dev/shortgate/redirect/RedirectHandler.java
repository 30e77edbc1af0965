package dev.shortgate.redirect;

import java.time.Clock;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.LinkLookup.Found;
import dev.shortgate.redirect.RedirectMetrics.Outcome;
import dev.shortgate.security.ApiRateLimiter;
import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.visit.VisitCounts;
import dev.shortgate.visit.VisitRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET|HEAD /{code}} through the general stack, for everything the {@link FastRedirects fast path} hands on:
 * check the code's syntax, look it up through the tiers, and answer with a redirect, a 404 (429 past the client's
 * unknown-code budget), a 410, or a 503 when the database cannot answer for a code no cache holds or the pod sheds
 * load. It never answers 500 for a code, and it never waits on a backend beyond its deadline. A GET that redirects
 * is handed to the {@link VisitRecorder}, which never waits and never throws; HEAD requests are not visits.
 */
final class RedirectHandler {

    private static final Logger log = LoggerFactory.getLogger(RedirectHandler.class);

    private final LinkLookup lookup;
    private final RedirectAnswer.Factory answers;
    private final ApiRateLimiter rateLimiter;
    private final Clock clock;
    private final VisitRecorder visits;
    private final VisitCounts visitCounts;
    private final ClientIpResolver clientIps;
    private final RedirectMetrics metrics;
    private final String retryAfter;

    RedirectHandler(LinkLookup lookup, RedirectAnswer.Factory answers, VisitRecorder visits, VisitCounts visitCounts,
                    ClientIpResolver clientIps, ApiRateLimiter rateLimiter, Clock clock, RedirectMetrics metrics,
                    RedirectProperties properties) {
        this.lookup = lookup;
        this.answers = answers;
        this.visits = visits;
        this.visitCounts = visitCounts;
        this.clientIps = clientIps;
        this.rateLimiter = rateLimiter;
        this.clock = clock;
        this.metrics = metrics;
        this.retryAfter = Long.toString(Math.max(1, properties.retryAfter().toSeconds()));
    }

    Mono<ServerResponse> handle(ServerRequest request) {
        long start = metrics.start();
        String code = request.pathVariable("code");
        if (!Link.CODE.matcher(code).matches()) {
            return unknown(request, start, Tier.NONE);
        }
        return lookup.find(code)
                .flatMap(found -> answer(request, start, found))
                .onErrorResume(error -> {
                    if (error instanceof NearCache.Shed) {
                        metrics.record(start, Tier.NONE, Outcome.SHED); // counted, not logged: it comes in floods
                    } else {
                        metrics.record(start, Tier.DB, Outcome.ERROR);
                        log.warn("Lookup of a code failed; answering 503: {}", error.toString());
                    }
                    return ServerResponse.status(HttpStatus.SERVICE_UNAVAILABLE)
                            .header(HttpHeaders.RETRY_AFTER, retryAfter)
                            .header(HttpHeaders.CACHE_CONTROL, "no-store")
                            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                            .bodyValue(RedirectProblems.UNAVAILABLE.body);
                });
    }

    private Mono<ServerResponse> answer(ServerRequest request, long start, Found found) {
        if (found.link().isEmpty()) {
            return unknown(request, start, found.tier());
        }
        Link link = found.link().get();
        return switch (link.stateAt(clock.instant())) {
            case ACTIVE -> link.maxVisits() == null
                    ? redirect(request, start, found.tier(), link)
                    : visitCounts.count(link.code())
                            .onErrorResume(e -> Mono.just(0L)) // counters unreadable: serve, do not lock out
                            .flatMap(visited -> visited >= link.maxVisits()
                                    ? problem(start, found.tier(), Outcome.GONE, RedirectProblems.GONE)
                                    : redirect(request, start, found.tier(), link));
            case EXPIRED -> problem(start, found.tier(), Outcome.GONE, RedirectProblems.GONE);
            // Exactly as an unknown code, the unknown-code limit included: a scanner cannot tell a disabled or
            // deleted code from one that never existed.
            case DISABLED, DELETED -> unknown(request, start, found.tier());
        };
    }

    private Mono<ServerResponse> redirect(ServerRequest request, long start, Tier tier, Link link) {
        metrics.record(start, tier, Outcome.FOUND);
        RedirectAnswer answer = answers.of(link);
        if (request.method() == HttpMethod.GET) {
            visits.record(request, link.code());
        }
        // An explicit zero length: without it a HEAD answer goes out chunked with no terminating chunk, and a
        // keep-alive client (the JDK's HttpClient) waits on that connection for a body that never comes.
        return ServerResponse.status(answer.status)
                .contentLength(0)
                .header(HttpHeaders.LOCATION, answer.location(request.uri().getRawQuery()))
                .header(HttpHeaders.CACHE_CONTROL, answer.cacheControl)
                .header("Referrer-Policy", RedirectAnswer.REFERRER_POLICY)
                .build();
    }

    /** 404 for a code that leads nowhere; 429 instead when this client has asked for too many of them. */
    private Mono<ServerResponse> unknown(ServerRequest request, long start, Tier tier) {
        var limited = rateLimiter.notFoundLimited(ClientIpResolver.rateLimitKey(clientIps.resolve(request)));
        if (limited == null) {
            return problem(start, tier, Outcome.NOT_FOUND, RedirectProblems.NOT_FOUND);
        }
        metrics.record(start, tier, Outcome.RATE_LIMITED);
        return ServerResponse.status(HttpStatus.TOO_MANY_REQUESTS)
                .headers(headers -> headers.addAll(limited.getHeaders()))
                .header(HttpHeaders.CACHE_CONTROL, RedirectAnswer.NO_CACHE)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyValue(RedirectProblems.RATE_LIMITED.body);
    }

    private Mono<ServerResponse> problem(long start, Tier tier, Outcome outcome, RedirectProblems problem) {
        metrics.record(start, tier, outcome);
        return ServerResponse.status(problem.problem.status())
                .header(HttpHeaders.CACHE_CONTROL, RedirectAnswer.NO_CACHE)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyValue(problem.body);
    }
}
