package dev.shortgate.redirect.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/** Readiness waits for the warm-up, and never longer than its deadline. */
class WarmupReadinessTest {

    final WarmupReadiness readiness = new WarmupReadiness();

    @Test
    void warmUpThatNeverEndsReportsReadyAtItsDeadline() {
        VirtualTimeScheduler timer = VirtualTimeScheduler.create();
        StepVerifier.withVirtualTime(() -> readiness.warm(Mono.never(), Duration.ofSeconds(20), timer), () -> timer, 1)
                .then(() -> assertThat(status()).isEqualTo(Status.DOWN))
                .thenAwait(Duration.ofSeconds(19))
                .then(() -> assertThat(status()).isEqualTo(Status.DOWN))
                .thenAwait(Duration.ofSeconds(1))
                .verifyComplete();
        assertThat(status()).isEqualTo(Status.UP);
        assertThat(readiness.health().block().getDetails()).containsEntry("warmup", "deadline exceeded");
    }

    @Test
    void warmUpThatEndsEarlyReportsReadyAtOnce() {
        VirtualTimeScheduler timer = VirtualTimeScheduler.create();
        StepVerifier.withVirtualTime(
                        () -> readiness.warm(Mono.delay(Duration.ofSeconds(3), timer), Duration.ofSeconds(20), timer),
                        () -> timer,
                        1)
                .thenAwait(Duration.ofSeconds(3))
                .verifyComplete();
        assertThat(status()).isEqualTo(Status.UP);
        assertThat(readiness.health().block().getDetails()).containsEntry("warmup", "done");
    }

    @Test
    void failedWarmUpReportsReadyColdRatherThanNever() {
        StepVerifier.create(readiness.warm(
                        Mono.error(new IllegalStateException("boom")),
                        Duration.ofSeconds(20),
                        VirtualTimeScheduler.create()))
                .verifyComplete();
        assertThat(status()).isEqualTo(Status.UP);
    }

    @Test
    void podThatDoesNotWarmUpIsReadyAtOnce() {
        assertThat(WarmupReadiness.ready().health().block().getStatus()).isEqualTo(Status.UP);
        assertThat(status()).as("a warming pod is down until it has warmed").isEqualTo(Status.DOWN);
    }

    @Test
    void sketchKeepsTheHottestCodesHottestFirstAndTheWindowNamesTheKey() {
        Clock clock = Clock.fixed(Instant.ofEpochSecond(1200), ZoneOffset.UTC);
        HotCodes hot = new HotCodes(null, "sg:", clock, 2, 1, Duration.ofMinutes(10));
        for (int i = 0; i < 30; i++) {
            hot.seen("hot");
        }
        for (int i = 0; i < 10; i++) {
            hot.seen("warm");
        }
        hot.seen("cold");

        assertThat(hot.local()).extracting(scored -> scored.getValue()).containsExactly("hot", "warm");
        assertThat(hot.key(0)).isEqualTo("sg:hot:2");
        assertThat(hot.key(-1)).isEqualTo("sg:hot:1");
        assertThat(hot.hottest(5).block())
                .as("without Redis there is no one to share with")
                .isEmpty();
    }

    private Status status() {
        return readiness.health().block().getStatus();
    }
}
