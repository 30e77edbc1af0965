package dev.shortgate.redirect.http;

import java.net.InetAddress;
import java.time.Clock;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.link.domain.DomainRedirects;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.http.RedirectMetrics.Outcome;
import dev.shortgate.redirect.lookup.LinkLookup;
import dev.shortgate.redirect.lookup.LinkLookup.Found;
import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.redirect.lookup.Tier;
import dev.shortgate.redirect.warmup.HotCodes;
import dev.shortgate.redirect.warmup.WarmupRequests;
import dev.shortgate.rules.RuleRequest;
import dev.shortgate.security.ApiRateLimiter;
import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.counts.VisitCounts;
import dev.shortgate.visit.intake.VisitRecorder;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import io.netty.util.AsciiString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * What a redirect request is answered with, decided once for both paths that serve {@code GET|HEAD /{code}}: the
 * fast path in the Netty pipeline ({@link FastRedirects}) and the general route ({@link RedirectHandler}). Look the
 * code up through the tiers; apply the link's state (disabled or deleted: as unknown; expired or over its cap: 410);
 * redirect with the link's status and headers, handing a GET's visit to the {@link VisitRecorder}; answer an unknown
 * code 404, handing a GET's orphan visit to the recorder, or 429 once its client has asked for too many (no orphan
 * visit then); answer 503 with {@code Retry-After} when the database cannot answer for a code no cache holds, or the
 * pod sheds load. It never answers 500 for a code, and it records
 * every answer in {@code shortgate.redirect} under the tier that answered and the outcome, and every redirect in
 * {@code shortgate.domain.redirects} under its domain ({@link RedirectsByDomain}).
 */
@Component
final class Redirects {

    private static final Logger log = LoggerFactory.getLogger(Redirects.class);

    private final LinkLookup lookup;
    private final RedirectAnswer.Factory answers;
    private final VisitRecorder visits;
    private final VisitCounts visitCounts;
    private final ApiRateLimiter rateLimiter;
    private final Clock clock;
    private final RedirectMetrics metrics;
    private final Reply unavailable;
    private final HotCodes hot;
    private final WarmupRequests warmup;
    private final DomainRedirects notFound;
    private final RedirectsByDomain byDomain;
    private volatile Reply invalidShortUrl = new Reply(HttpResponseStatus.FOUND, null, null);

    Redirects(
            LinkLookup lookup,
            RedirectAnswer.Factory answers,
            VisitRecorder visits,
            VisitCounts visitCounts,
            ApiRateLimiter rateLimiter,
            Clock clock,
            RedirectMetrics metrics,
            RedirectProperties properties) {
        this(
                lookup,
                answers,
                visits,
                visitCounts,
                rateLimiter,
                clock,
                metrics,
                properties,
                HotCodes.NONE,
                WarmupRequests.NONE,
                DomainRedirects.fixed(DomainRedirects.Redirects.NONE),
                RedirectsByDomain.NONE);
    }

    @Autowired
    Redirects(
            LinkLookup lookup,
            RedirectAnswer.Factory answers,
            VisitRecorder visits,
            VisitCounts visitCounts,
            ApiRateLimiter rateLimiter,
            Clock clock,
            RedirectMetrics metrics,
            RedirectProperties properties,
            HotCodes hot,
            WarmupRequests warmup,
            DomainRedirects notFound,
            RedirectsByDomain byDomain) {
        this.byDomain = byDomain;
        this.hot = hot;
        this.warmup = warmup;
        this.notFound = notFound;
        this.lookup = lookup;
        this.answers = answers;
        this.visits = visits;
        this.visitCounts = visitCounts;
        this.rateLimiter = rateLimiter;
        this.clock = clock;
        this.metrics = metrics;
        HttpHeaders unavailableHeaders = new DefaultHttpHeaders()
                .add(RedirectProblems.UNAVAILABLE.headers)
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                .set(
                        HttpHeaderNames.RETRY_AFTER,
                        Long.toString(Math.max(1, properties.retryAfter().toSeconds())));
        this.unavailable = new Reply(
                HttpResponseStatus.SERVICE_UNAVAILABLE,
                new ReadOnlyHttpHeaders(true, flatten(unavailableHeaders)),
                RedirectProblems.UNAVAILABLE);
    }

    /**
     * A redirect request as both paths see it.
     *
     * @param code      the path's one segment, decoded
     * @param get       {@code true} for GET (a visit), {@code false} for HEAD
     * @param rawQuery  the raw query string, or {@code null}
     * @param clientIp  the client's address through the trusted proxies, or {@code null}
     * @param userAgent the {@code User-Agent} header, or {@code null}
     * @param referer   the {@code Referer} header, or {@code null}
     * @param acceptLanguage the {@code Accept-Language} header, or {@code null} (for redirect rules)
     * @param key       what the link of {@code code} on the request's domain is stored and cached under
     *                  ({@code DomainCodes}): {@code code} itself on the default domain; {@code null} for a host
     *                  that is none of the domains when those are refused (then 404)
     */
    record Request(
            String code,
            boolean get,
            String rawQuery,
            InetAddress clientIp,
            String userAgent,
            String referer,
            String acceptLanguage,
            String key) {

        Request(
                String code,
                boolean get,
                String rawQuery,
                InetAddress clientIp,
                String userAgent,
                String referer,
                String acceptLanguage) {
            this(code, get, rawQuery, clientIp, userAgent, referer, acceptLanguage, code);
        }

        Request(String code, boolean get, String rawQuery, InetAddress clientIp, String userAgent, String referer) {
            this(code, get, rawQuery, clientIp, userAgent, referer, null, code);
        }
    }

    /**
     * What to send: a status and its headers, ready to encode, and for problems a body. Redirects have none and an
     * explicit zero length (without it a HEAD answer would go out with no length, and a keep-alive client would wait
     * for a body that never comes).
     */
    record Reply(HttpResponseStatus status, HttpHeaders headers, RedirectProblems body) {}

    /** The answer, looking the code up as far down as it takes. Never fails: backend trouble is a 503 reply. */
    Mono<Reply> answer(Request request) {
        return answer(request, null);
    }

    /**
     * As {@link #answer(Request)}, with the answer decided (and the visit recorded) on {@code on}, not on the thread
     * that completed the lookup. That thread is the one I/O thread of the shared Redis connection for every lookup
     * Redis answers: the decision made there too kept a starting pod, whose code still ran interpreted, at a few
     * hundred lookups a second on that one thread while the other cores had work to spare.
     */
    Mono<Reply> answer(Request request, Scheduler on) {
        long start = metrics.start();
        if (request.key() == null || !Link.CODE.matcher(request.code()).matches()) {
            Mono<Reply> unknown = Mono.just(unknown(request, start, Tier.NONE));
            return on == null ? unknown : unknown.publishOn(on); // on it too, never within the caller's subscribe
        }
        Mono<Found> lookedUp = lookup.find(request.key());
        return (on == null ? lookedUp : lookedUp.publishOn(on))
                .flatMap(found -> {
                    Reply now = answer(request, found, found.tier(), start);
                    return now != null ? Mono.just(now) : capped(request, found, start);
                })
                .onErrorResume(error -> {
                    if (error instanceof NearCache.Shed) {
                        record(request, start, Tier.NONE, Outcome.SHED); // counted, not logged: it comes in floods
                    } else {
                        record(request, start, Tier.DB, Outcome.ERROR);
                        log.warn("Lookup of a code failed; answering 503: {}", error.toString());
                    }
                    return Mono.just(unavailable);
                });
    }

    /**
     * The answer from what is known now, or {@code null} when it takes a visit count that is not at hand (a capped
     * link). {@code tier} is where {@code found} came from, {@code start} from {@link RedirectMetrics#start()};
     * nothing is recorded when {@code null} is returned.
     */
    Reply answer(Request request, Found found, Tier tier, long start) {
        RedirectAnswer answer = found.answer(answers);
        if (answer == null) {
            return unknown(request, start, tier);
        }
        Link link = answer.link;
        if (!answer.alwaysActive) {
            switch (link.stateAt(clock.instant())) {
                case EXPIRED -> {
                    return problem(request, start, tier, Outcome.GONE, RedirectProblems.GONE);
                }
                case DISABLED, DELETED -> {
                    // Exactly as an unknown code, the unknown-code limit included: a scanner cannot tell a disabled
                    // or deleted code from one that never existed.
                    return unknown(request, start, tier);
                }
                case ACTIVE -> {
                    if (link.maxVisits() != null) {
                        Long visited = visitCounts.fresh(link.code());
                        if (visited == null) {
                            return null;
                        }
                        if (visited >= link.maxVisits()) {
                            return problem(request, start, tier, Outcome.GONE, RedirectProblems.GONE);
                        }
                    }
                }
            }
        }
        return redirect(request, answer, start, tier);
    }

    /**
     * Shlink's tracking pixel ({@code GET /{code}/track}): records a visit of the link when it would redirect now
     * (live, not expired, under its cap), and nothing otherwise; completes with whether it did. Never fails, and
     * records no orphan visit: the pixel is answered the same either way.
     */
    Mono<Boolean> track(Request request) {
        if (request.key() == null || !Link.CODE.matcher(request.code()).matches()) {
            return Mono.just(false);
        }
        return lookup.find(request.key())
                .flatMap(found -> {
                    RedirectAnswer answer = found.answer(answers);
                    if (answer == null) {
                        return Mono.just(false);
                    }
                    Link link = answer.link;
                    if (!answer.alwaysActive && link.stateAt(clock.instant()) != Link.State.ACTIVE) {
                        return Mono.just(false);
                    }
                    Mono<Boolean> underCap = answer.alwaysActive || link.maxVisits() == null
                            ? Mono.just(true)
                            : visitCounts
                                    .count(link.code())
                                    .onErrorResume(e -> Mono.just(0L))
                                    .map(visited -> visited < link.maxVisits());
                    return underCap.doOnNext(ok -> {
                        if (ok) {
                            visits.record(link.code(), request.clientIp(), request.userAgent(), request.referer());
                        }
                    });
                })
                .defaultIfEmpty(false)
                .onErrorReturn(false);
    }

    /** A capped link whose visit count has to be read first. */
    private Mono<Reply> capped(Request request, Found found, long start) {
        RedirectAnswer answer = found.answer(answers);
        return visitCounts
                .count(request.key())
                .onErrorResume(e -> Mono.just(0L)) // counters unreadable: serve, do not lock out
                .map(visited -> visited >= answer.link.maxVisits()
                        ? problem(request, start, found.tier(), Outcome.GONE, RedirectProblems.GONE)
                        : redirect(request, answer, start, found.tier()));
    }

    private Reply redirect(Request request, RedirectAnswer answer, long start, Tier tier) {
        boolean quiet = warmup.marks(request.userAgent()); // the pod's own warm-up: answered, recorded nowhere
        if (!quiet) {
            metrics.record(start, tier, Outcome.FOUND);
            byDomain.increment(domainId(request));
            hot.seen(request.key());
        }
        if (answer.rules != null) {
            String target = answer.rules.target(new RuleRequest(
                    request.key(),
                    request.rawQuery(),
                    request.clientIp(),
                    request.userAgent(),
                    request.acceptLanguage()));
            if (request.get() && !quiet) {
                // a link with rules counts every visit by destination, its own URL included
                visits.record(
                        request.key(),
                        request.clientIp(),
                        request.userAgent(),
                        request.referer(),
                        target != null ? target : answer.link.url());
            }
            if (target != null) {
                return new Reply(answer.status, answer.headersFor(target, request.rawQuery()), null);
            }
        } else if (request.get() && !quiet) {
            visits.record(request.key(), request.clientIp(), request.userAgent(), request.referer());
        }
        HttpHeaders headers = answer.variesWith(request.rawQuery())
                ? answer.headers(answer.location(request.rawQuery()))
                : answer.headers;
        return new Reply(answer.status, headers, null);
    }

    /** 404 for a code that leads nowhere; 429 once this client has asked for too many of them. */
    private Reply unknown(Request request, long start, Tier tier) {
        if (warmup.marks(request.userAgent())) {
            return RedirectProblems.NOT_FOUND.reply; // the pod's own warm-up: no orphan visit, limit or metric
        }
        ProblemException limited = rateLimiter.notFoundLimited(ClientIpResolver.rateLimitKey(request.clientIp()));
        if (limited == null) {
            int domainId = domainId(request);
            if (request.get()) {
                visits.recordOrphan(
                        OrphanVisitType.INVALID_SHORT_URL,
                        domainId,
                        request.code(),
                        request.rawQuery(),
                        request.clientIp(),
                        request.userAgent(),
                        request.referer());
            }
            String target = notFound.effective(domainId).invalidShortUrl();
            if (target != null) {
                record(request, start, tier, Outcome.NOT_FOUND);
                return notFoundRedirect(target);
            }
            return problem(request, start, tier, Outcome.NOT_FOUND, RedirectProblems.NOT_FOUND);
        }
        metrics.record(start, tier, Outcome.RATE_LIMITED);
        HttpHeaders headers = new DefaultHttpHeaders().add(RedirectProblems.RATE_LIMITED.headers);
        limited.getHeaders().forEach(headers::add); // Retry-After and the rest of the limit's headers
        return new Reply(HttpResponseStatus.TOO_MANY_REQUESTS, headers, RedirectProblems.RATE_LIMITED);
    }

    /**
     * The id of the domain the request's host picked: the default domain's when its key is the code itself, the id
     * the key starts with otherwise ({@code DomainCodes}), {@link Domains#REFUSED} for a refused host.
     */
    static int domainId(Request request) {
        String key = request.key();
        if (key == null) {
            return Domains.REFUSED;
        }
        return key.length() == request.code().length() ? Domains.DEFAULT_ID : DomainCodes.domainId(key);
    }

    /**
     * The 302 to the invalid-short-URL redirect, built once per target and kept while the next unknown code goes
     * to the same one (a target changes only when someone edits a domain's redirects).
     */
    private Reply notFoundRedirect(String target) {
        Reply reply = invalidShortUrl;
        if (!target.equals(reply.headers() == null ? null : reply.headers().get(HttpHeaderNames.LOCATION))) {
            reply = new Reply(HttpResponseStatus.FOUND, notFoundRedirectHeaders(target), null);
            invalidShortUrl = reply;
        }
        return reply;
    }

    /** A not-found redirect's headers: not cached, since the target can be changed at any time. */
    static HttpHeaders notFoundRedirectHeaders(String target) {
        return new ReadOnlyHttpHeaders(
                true,
                HttpHeaderNames.LOCATION,
                AsciiString.of(target),
                HttpHeaderNames.CACHE_CONTROL,
                AsciiString.of("private, max-age=0"),
                HttpHeaderNames.CONTENT_LENGTH,
                AsciiString.of("0"));
    }

    private Reply problem(Request request, long start, Tier tier, Outcome outcome, RedirectProblems problem) {
        record(request, start, tier, outcome);
        return problem.reply;
    }

    private void record(Request request, long start, Tier tier, Outcome outcome) {
        if (!warmup.marks(request.userAgent())) {
            metrics.record(start, tier, outcome);
        }
    }

    private static CharSequence[] flatten(HttpHeaders headers) {
        CharSequence[] pairs = new CharSequence[headers.size() * 2];
        int i = 0;
        for (var header : headers) {
            pairs[i++] = AsciiString.of(header.getKey());
            pairs[i++] = AsciiString.of(header.getValue());
        }
        return pairs;
    }
}
