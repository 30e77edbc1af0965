package dev.shortgate.redirect.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.guard.UnknownCodeGuard;
import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.redirect.lookup.RedisTier;
import dev.shortgate.redirect.lookup.TieredLinkLookup;
import dev.shortgate.security.RateLimiters;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The {@code tier} tag of {@code shortgate.redirect} names the tier that really answered: the database for the
 * request that started a load and for every request that joined it while it was in flight, the near cache for the
 * requests after it, and the unknown-code guard when it answered without a query. The database answers when the
 * test says so, so a request can join a load in flight without racing it.
 */
class LookupTierTagsTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final AtomicLong nanos = new AtomicLong();
    final VirtualTimeScheduler timer = VirtualTimeScheduler.create();
    final RedirectProperties properties = new RedirectProperties(
            new RedirectProperties.NearCache(
                    100, Duration.ofMinutes(1), Duration.ofSeconds(5), Duration.ofSeconds(2), 10),
            new RedirectProperties.Redis(
                    Duration.ofMillis(100),
                    Duration.ofMillis(500),
                    Duration.ofMillis(100),
                    Duration.ofHours(1),
                    "sg:",
                    new RedirectProperties.Redis.Repair(1, Duration.ofHours(1), Duration.ofHours(1)),
                    new RedirectProperties.Redis.Writes(Duration.ofMillis(500), Duration.ofSeconds(2)),
                    Duration.ofSeconds(2)),
            Duration.ofHours(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            true,
            new RedirectProperties.Guard(true, 1000, 0.01, 1, 1, Duration.ofSeconds(10)),
            200,
            Duration.ofSeconds(3));

    /** The database: one answer a code, emitted when the test says so; counts its queries. */
    final Map<String, Sinks.One<Link>> rows = new ConcurrentHashMap<>();

    final AtomicInteger queries = new AtomicInteger();

    final TieredLinkLookup lookup = new TieredLinkLookup(
            new NearCache(properties.nearCache(), nanos::get, timer, registry),
            RedisTier.NONE,
            neverMade(),
            properties.guard(),
            code -> {
                queries.incrementAndGet();
                return row(code).asMono();
            },
            Schedulers.immediate(),
            properties.dbTimeout(),
            properties.maxDbLookups(),
            properties.redis().hedgeAfter(),
            timer,
            registry);
    final Redirects redirects = new Redirects(
            lookup,
            new RedirectAnswer.Factory(properties),
            null,
            null,
            RateLimiters.perPod(registry),
            Clock.fixed(Instant.EPOCH, ZoneOffset.UTC),
            new RedirectMetrics(nanos::get, registry),
            properties);

    @Test
    void requestsThatJoinALoadInFlightAreTaggedWithTheTierThatAnsweredItAndLaterOnesNear() {
        Flux<Integer> both = Flux.merge(redirects.answer(head("joined")), redirects.answer(head("joined")))
                .map(reply -> reply.status().code());
        StepVerifier.create(both)
                .then(() ->
                        assertThat(queries).as("both requests wait on one load").hasValue(1))
                .then(() -> row("joined").tryEmitValue(link("joined")))
                .expectNext(302, 302)
                .verifyComplete();

        assertThat(queries).hasValue(1);
        assertThat(redirected("db", "found")).isEqualTo(2);
        assertThat(redirected("near", "found")).isZero();

        StepVerifier.create(redirects.answer(head("joined")))
                .expectNextMatches(reply -> reply.status().code() == 302)
                .verifyComplete();
        assertThat(redirected("near", "found")).isEqualTo(1);
        assertThat(redirected("db", "found")).isEqualTo(2);
    }

    @Test
    void unknownCodeIsTaggedWithTheGuardOnlyWhenTheGuardAnsweredWithoutAQuery() {
        row("never-made-1").tryEmitEmpty();
        StepVerifier.create(redirects.answer(head("never-made-1")))
                .expectNextMatches(reply -> reply.status().code() == 404)
                .verifyComplete();
        assertThat(redirected("db", "not_found"))
                .as("the guard's one verification went to the database")
                .isEqualTo(1);

        StepVerifier.create(redirects.answer(head("never-made-2")))
                .expectNextMatches(reply -> reply.status().code() == 404)
                .verifyComplete();
        assertThat(redirected("guard", "not_found")).isEqualTo(1);
        assertThat(queries).hasValue(1);
    }

    private Sinks.One<Link> row(String code) {
        return rows.computeIfAbsent(code, c -> Sinks.one());
    }

    private double redirected(String tier, String outcome) {
        // registered the first time a tier and outcome occur: none yet is a count of 0
        Timer timer = registry.find("shortgate.redirect")
                .tag("tier", tier)
                .tag("outcome", outcome)
                .timer();
        return timer == null ? 0 : timer.count();
    }

    /** A HEAD request: no visit to record, and an uncapped link needs no visit count. */
    private static Redirects.Request head(String code) {
        return new Redirects.Request(code, false, null, null, null, null);
    }

    private static Link link(String code) {
        return new Link(
                code, "https://example.com/" + code, 302, false, Instant.EPOCH, null, null, false, false, null, null);
    }

    /** A guard that knows every code except those starting {@code never-made}. */
    private static UnknownCodeGuard neverMade() {
        return new UnknownCodeGuard() {
            @Override
            public Mono<Boolean> mayExist(String code) {
                return Mono.just(!code.startsWith("never-made"));
            }

            @Override
            public Mono<Void> add(String code) {
                return Mono.empty();
            }

            @Override
            public boolean ready() {
                return true;
            }
        };
    }
}
