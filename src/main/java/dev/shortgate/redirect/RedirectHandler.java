package dev.shortgate.redirect;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.Link;
import dev.shortgate.security.ApiRateLimiter;
import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.visit.VisitCounts;
import dev.shortgate.system.Problem;
import dev.shortgate.visit.VisitRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET|HEAD /{code}}: check the code's syntax, look it up through the tiers, and answer with a redirect,
 * a 404, or a 503 when the database cannot answer for a code no cache holds. It never answers 500 for a code,
 * and it never waits on a backend beyond that backend's timeout. A GET that redirects is handed to the
 * {@link VisitRecorder}, which never waits and never throws; HEAD requests are not visits.
 */
@Component
class RedirectHandler {

    private static final Logger log = LoggerFactory.getLogger(RedirectHandler.class);
    private static final String REFERRER_POLICY = "strict-origin-when-cross-origin";
    private static final String NO_CACHE = "private, max-age=0";

    private final LinkLookup lookup;
    private final ApiRateLimiter rateLimiter;
    private final Clock clock;
    private final VisitRecorder visits;
    private final VisitCounts visitCounts;
    private final ClientIpResolver clientIps;
    private final Ticker ticker;
    private final String permanentCacheControl;
    private final String retryAfter;
    private final byte[] notFoundBody = problemBody(Problem.LINK_NOT_FOUND);
    private final byte[] unavailableBody = problemBody(Problem.SERVICE_UNAVAILABLE);
    private final byte[] goneBody = problemBody(Problem.LINK_GONE);
    private final byte[] rateLimitedBody = problemBody(Problem.RATE_LIMITED);
    private final Timer[][] timers = new Timer[Tier.values().length][Outcome.values().length];

    enum Outcome {
        FOUND, NOT_FOUND, GONE, RATE_LIMITED, ERROR;

        final String tag = name().toLowerCase(java.util.Locale.ROOT);
    }

    RedirectHandler(LinkLookup lookup, VisitRecorder visits, VisitCounts visitCounts, ClientIpResolver clientIps,
                    ApiRateLimiter rateLimiter, Clock clock, Ticker ticker, RedirectProperties properties,
                    MeterRegistry registry) {
        this.lookup = lookup;
        this.visits = visits;
        this.visitCounts = visitCounts;
        this.clientIps = clientIps;
        this.rateLimiter = rateLimiter;
        this.clock = clock;
        this.ticker = ticker;
        this.permanentCacheControl = "public, max-age=" + properties.permanentMaxAge().toSeconds();
        this.retryAfter = Long.toString(Math.max(1, properties.retryAfter().toSeconds()));
        for (Tier tier : Tier.values()) {
            for (Outcome outcome : Outcome.values()) {
                timers[tier.ordinal()][outcome.ordinal()] = Timer.builder("shortgate.redirect")
                        .description("Redirect requests, by the tier that answered and the outcome")
                        .tag("tier", tier.tag)
                        .tag("outcome", outcome.tag)
                        .publishPercentileHistogram()
                        .minimumExpectedValue(java.time.Duration.ofMillis(1).dividedBy(10))
                        .maximumExpectedValue(java.time.Duration.ofSeconds(2))
                        .register(registry);
            }
        }
    }

    Mono<ServerResponse> handle(ServerRequest request) {
        long start = ticker.read();
        String code = request.pathVariable("code");
        if (!Link.CODE.matcher(code).matches()) {
            return unknown(request, start, Tier.NONE);
        }
        return lookup.find(code)
                .flatMap(found -> {
                    if (found.link().isEmpty()) {
                        return unknown(request, start, found.tier());
                    }
                    Link link = found.link().get();
                    return switch (link.stateAt(clock.instant())) {
                        case ACTIVE -> link.maxVisits() == null
                                ? found(request, start, found.tier(), link)
                                : visitCounts.count(code)
                                        .onErrorResume(e -> Mono.just(0L)) // counters unreadable: serve, do not lock out
                                        .flatMap(visited -> visited >= link.maxVisits()
                                                ? gone(start, found.tier())
                                                : found(request, start, found.tier(), link));
                        case EXPIRED -> gone(start, found.tier());
                        // Exactly as an unknown code, the unknown-code limit included: a scanner cannot tell a
                        // disabled or deleted code from one that never existed.
                        case DISABLED, DELETED -> unknown(request, start, found.tier());
                    };
                })
                .onErrorResume(error -> {
                    record(start, Tier.DB, Outcome.ERROR);
                    log.warn("Lookup of a code failed; answering 503: {}", error.toString());
                    return ServerResponse.status(HttpStatus.SERVICE_UNAVAILABLE)
                            .header(HttpHeaders.RETRY_AFTER, retryAfter)
                            .header(HttpHeaders.CACHE_CONTROL, "no-store")
                            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                            .bodyValue(unavailableBody);
                });
    }

    private Mono<ServerResponse> found(ServerRequest request, long start, Tier tier, Link link) {
        record(start, tier, Outcome.FOUND);
        Mono<ServerResponse> response = redirect(link, request);
        if (request.method() == HttpMethod.GET) {
            visits.record(request, link.code());
        }
        return response;
    }

    private Mono<ServerResponse> gone(long start, Tier tier) {
        record(start, tier, Outcome.GONE);
        return problem(HttpStatus.GONE, goneBody);
    }

    /** 404 for a code that leads nowhere; 429 instead when this client has asked for too many of them. */
    private Mono<ServerResponse> unknown(ServerRequest request, long start, Tier tier) {
        return rateLimiter.checkNotFound(clientIp(request))
                .flatMap(limited -> {
                    record(start, tier, Outcome.RATE_LIMITED);
                    return ServerResponse.status(HttpStatus.TOO_MANY_REQUESTS)
                            .headers(headers -> headers.addAll(limited.getHeaders()))
                            .header(HttpHeaders.CACHE_CONTROL, NO_CACHE)
                            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                            .bodyValue(rateLimitedBody);
                })
                .switchIfEmpty(Mono.defer(() -> {
                    record(start, tier, Outcome.NOT_FOUND);
                    return notFound();
                }));
    }

    private String clientIp(ServerRequest request) {
        return ClientIpResolver.rateLimitKey(clientIps.resolve(request));
    }

    private Mono<ServerResponse> redirect(Link link, ServerRequest request) {
        int status = link.redirectStatus();
        // A permanent redirect may be cached by browsers and CDNs, but not past the link's own end.
        boolean permanent = (status == 301 || status == 308) && link.expiresAt() == null && link.maxVisits() == null;
        String location = link.forwardQuery() ? QueryForwarding.merge(link.url(), request.uri().getRawQuery())
                : link.url();
        // An explicit zero length: without it a HEAD answer goes out chunked with no terminating chunk, and a
        // keep-alive client (the JDK's HttpClient) waits on that connection for a body that never comes.
        return ServerResponse.status(status)
                .contentLength(0)
                .header(HttpHeaders.LOCATION, location)
                .header(HttpHeaders.CACHE_CONTROL, permanent ? permanentCacheControl : NO_CACHE)
                .header("Referrer-Policy", REFERRER_POLICY)
                .build();
    }

    private Mono<ServerResponse> problem(HttpStatus status, byte[] body) {
        return ServerResponse.status(status)
                .header(HttpHeaders.CACHE_CONTROL, NO_CACHE)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyValue(body);
    }

    private Mono<ServerResponse> notFound() {
        return problem(HttpStatus.NOT_FOUND, notFoundBody);
    }

    private void record(long start, Tier tier, Outcome outcome) {
        timers[tier.ordinal()][outcome.ordinal()].record(ticker.read() - start, TimeUnit.NANOSECONDS);
    }

    private static byte[] problemBody(Problem problem) {
        return ("{\"type\":\"" + problem.type() + "\",\"title\":\"" + problem.title() + "\",\"status\":"
                + problem.status().value() + "}").getBytes(StandardCharsets.UTF_8);
    }
}
