package dev.shortgate.redirect.http;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.redirect.lookup.Tier;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * {@code shortgate.redirect}: one timer per tier and outcome, shared by both redirect paths (the fast path below
 * Spring's dispatcher and {@link RedirectHandler}), so a dashboard sees them as one.
 *
 * <p>Cheap to scrape at any pod count: a timer is registered the first time its tier and outcome occur (a pod at
 * rest publishes none), it publishes a handful of fixed latency buckets ({@link #BUCKETS}) instead of a percentile
 * histogram's 67, and the {@code tier} tag is only kept where it tells something: a link answered ({@code found})
 * or a code that leads nowhere ({@code not_found}: the guard against the database), and for a failed lookup (always
 * the database's). Every other outcome is tagged {@code tier="none"}. A pair publishes 11 series; a pod under
 * traffic sees 3 to 6 pairs (found near, redis and db; not_found guard, near and db), at most 18.
 */
final class RedirectMetrics {

    /**
     * The latency buckets' upper bounds (Prometheus adds {@code +Inf}): sub-millisecond for the near cache, the
     * 10 ms tail goal, and the database's and the deadlines' range above it.
     */
    static final Duration[] BUCKETS = {
        Duration.ofMillis(1).dividedBy(2),
        Duration.ofMillis(1),
        Duration.ofMillis(5).dividedBy(2),
        Duration.ofMillis(5),
        Duration.ofMillis(10),
        Duration.ofMillis(50),
        Duration.ofMillis(250)
    };

    enum Outcome {
        FOUND(true),
        NOT_FOUND(true),
        GONE(false),
        RATE_LIMITED(false),
        SHED(false),
        ERROR(true);

        final String tag = name().toLowerCase(Locale.ROOT);

        /** Whether the {@code tier} tag is kept; otherwise it is {@code none}. */
        final boolean tiered;

        Outcome(boolean tiered) {
            this.tiered = tiered;
        }
    }

    private static final int OUTCOMES = Outcome.values().length;

    private final Ticker ticker;
    private final MeterRegistry registry;
    private final AtomicReferenceArray<Timer> timers = new AtomicReferenceArray<>(Tier.values().length * OUTCOMES);

    RedirectMetrics(Ticker ticker, MeterRegistry registry) {
        this.ticker = ticker;
        this.registry = registry;
    }

    /** Now, in the ticker's nanoseconds: pass it back to {@link #record}. */
    long start() {
        return ticker.read();
    }

    void record(long start, Tier tier, Outcome outcome) {
        timer(outcome.tiered ? tier : Tier.NONE, outcome).record(ticker.read() - start, TimeUnit.NANOSECONDS);
    }

    private Timer timer(Tier tier, Outcome outcome) {
        int index = tier.ordinal() * OUTCOMES + outcome.ordinal();
        Timer timer = timers.get(index);
        if (timer == null) {
            // Two threads may both get here: the registry hands both the same timer.
            timer = Timer.builder("shortgate.redirect")
                    .description("Redirect requests, by the tier that answered and the outcome")
                    .tag("tier", tier.tag)
                    .tag("outcome", outcome.tag)
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry);
            timers.set(index, timer);
        }
        return timer;
    }
}
