package dev.shortgate.redirect.warmup;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * {@code warmedUp} in the readiness group: down while the pod warms up, up once the warm-up has finished, failed,
 * or run out of its deadline. A start never hangs on it: past the deadline the warm-up is cancelled and the pod
 * reports ready, cold.
 */
public final class WarmupReadiness implements ReactiveHealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(WarmupReadiness.class);

    private volatile Health health =
            Health.down().withDetail("warmup", "not started").build();

    /** Up at once: for a pod that does not warm up. */
    static WarmupReadiness ready() {
        WarmupReadiness readiness = new WarmupReadiness();
        readiness.health = Health.up().withDetail("warmup", "off").build();
        return readiness;
    }

    @Override
    public Mono<Health> health() {
        return Mono.just(health);
    }

    /**
     * Runs {@code work} (reported as "warming up" meanwhile) and reports ready when it ends, or at {@code deadline}
     * on {@code timer}, whichever comes first. Never fails.
     */
    Mono<Void> warm(Mono<?> work, Duration deadline, Scheduler timer) {
        return Mono.defer(() -> {
                    long started = System.nanoTime();
                    health = Health.down().withDetail("warmup", "warming up").build();
                    return work.timeout(deadline, timer)
                            .then(Mono.fromRunnable(() -> done("done", started)))
                            .onErrorResume(error -> {
                                if (error instanceof TimeoutException) {
                                    log.warn("Warm-up did not finish within {}; reporting ready anyway", deadline);
                                    done("deadline exceeded", started);
                                } else {
                                    log.warn("Warm-up failed; reporting ready anyway: {}", error.toString());
                                    done("failed: " + error.getClass().getSimpleName(), started);
                                }
                                return Mono.empty();
                            });
                })
                .then();
    }

    private void done(String how, long started) {
        long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        health = Health.up()
                .withDetail("warmup", how)
                .withDetail("tookMs", millis)
                .build();
        log.info("Warm-up {} after {} ms; ready", how, millis);
    }
}
