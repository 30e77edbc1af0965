package dev.shortgate.redirect.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.redirect.http.RedirectMetrics.Outcome;
import dev.shortgate.redirect.lookup.Tier;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * {@code shortgate.redirect} is cheap to scrape: nothing before a redirect was answered, a handful of buckets per
 * tier and outcome pair, and the tier only where it means something.
 */
class RedirectMetricsTest {

    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final AtomicLong nanos = new AtomicLong();
    final RedirectMetrics metrics = new RedirectMetrics(nanos::get, registry);

    @Test
    void podThatAnsweredNoRedirectPublishesNoRedirectSeries() {
        assertThat(redirectSeries()).isZero();
    }

    @Test
    void eachPairPublishesElevenSeriesAndTheSlowestAnswerLandsInItsBucket() {
        long start = metrics.start();
        nanos.addAndGet(3_000_000); // 3 ms
        metrics.record(start, Tier.NEAR, Outcome.FOUND);

        // 7 buckets + Inf, count, sum, max
        assertThat(redirectSeries()).isEqualTo(11);
        String scrape = registry.scrape();
        assertThat(scrape)
                .contains("shortgate_redirect_seconds_bucket{outcome=\"found\",tier=\"near\",le=\"0.0025\"} 0")
                .contains("shortgate_redirect_seconds_bucket{outcome=\"found\",tier=\"near\",le=\"0.005\"} 1");
    }

    @Test
    void outcomesWhoseTierTellsNothingShareOnePair() {
        for (Tier tier : Tier.values()) {
            metrics.record(metrics.start(), tier, Outcome.RATE_LIMITED);
            metrics.record(metrics.start(), tier, Outcome.GONE);
        }

        assertThat(registry.find("shortgate.redirect").timers()).hasSize(2);
        assertThat(registry.get("shortgate.redirect")
                        .tag("tier", "none")
                        .tag("outcome", "rate_limited")
                        .timer()
                        .count())
                .isEqualTo(Tier.values().length);
    }

    @Test
    void everyPairThatCanOccurStaysWithinTheSeriesBudget() {
        for (Tier tier : Tier.values()) {
            for (Outcome outcome : Outcome.values()) {
                metrics.record(metrics.start(), tier, outcome);
            }
        }

        // found and not_found per tier (10), error per tier (5), gone, rate limited and shed untiered (3)
        assertThat(registry.find("shortgate.redirect").timers()).hasSize(18);
        assertThat(redirectSeries()).isEqualTo(18 * 11);
    }

    private long redirectSeries() {
        return registry.scrape()
                .lines()
                .filter(line -> line.startsWith("shortgate_redirect_"))
                .count();
    }
}
