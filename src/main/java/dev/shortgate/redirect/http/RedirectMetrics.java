package dev.shortgate.redirect.http;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.redirect.lookup.Tier;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * {@code shortgate.redirect}: one timer per tier and outcome, registered up front and shared by both redirect paths
 * (the fast path below Spring's dispatcher and {@link RedirectHandler}), so a dashboard sees them as one.
 */
final class RedirectMetrics {

    enum Outcome {
        FOUND,
        NOT_FOUND,
        GONE,
        RATE_LIMITED,
        SHED,
        ERROR;

        final String tag = name().toLowerCase(Locale.ROOT);
    }

    private final Ticker ticker;
    private final Timer[][] timers = new Timer[Tier.values().length][Outcome.values().length];

    RedirectMetrics(Ticker ticker, MeterRegistry registry) {
        this.ticker = ticker;
        for (Tier tier : Tier.values()) {
            for (Outcome outcome : Outcome.values()) {
                timers[tier.ordinal()][outcome.ordinal()] = Timer.builder("shortgate.redirect")
                        .description("Redirect requests, by the tier that answered and the outcome")
                        .tag("tier", tier.tag)
                        .tag("outcome", outcome.tag)
                        .publishPercentileHistogram()
                        .minimumExpectedValue(Duration.ofMillis(1).dividedBy(10))
                        .maximumExpectedValue(Duration.ofSeconds(2))
                        .register(registry);
            }
        }
    }

    /** Now, in the ticker's nanoseconds: pass it back to {@link #record}. */
    long start() {
        return ticker.read();
    }

    void record(long start, Tier tier, Outcome outcome) {
        timers[tier.ordinal()][outcome.ordinal()].record(ticker.read() - start, TimeUnit.NANOSECONDS);
    }
}
