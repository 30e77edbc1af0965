package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * What counts against the Redis breaker, and how long a call waits: what Redis did, not what the pod did. Timeouts
 * while Redis keeps answering other calls are the pod's own queueing (a saturated CPU): the call waits on, up to a
 * limit, and the breaker stays closed. Timeouts while Redis answers nothing, and refused or reset connections,
 * fail at once and open it.
 */
class RedisBreakerTest {

    final AtomicLong nanos = new AtomicLong();
    final RedisCalls.Liveness liveness = new RedisCalls.Liveness(nanos::get, Duration.ofMillis(100));
    final CircuitBreaker breaker = CircuitBreaker.of("redis", RedisCalls.breakerConfig(liveness));

    @Test
    void timeoutsWhileRedisKeepsAnsweringOtherCallsDoNotOpenTheBreaker() {
        for (int i = 0; i < 200; i++) {
            nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(10));
            if (i % 4 == 0) {
                liveness.answered(); // one call in four still gets through in time
                breaker.onSuccess(1, TimeUnit.MILLISECONDS);
            } else {
                breaker.onError(150, TimeUnit.MILLISECONDS, new TimeoutException("queued locally"));
            }
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void answersLaterThanTheTimeoutDoNotOpenAClosedBreaker() {
        // A saturated pod: every answer is read 150 ms after its call, Redis answering all along.
        for (int i = 0; i < 200; i++) {
            nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(10));
            liveness.answered();
            breaker.onSuccess(150, TimeUnit.MILLISECONDS);
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void halfOpenTrialsThatRedisAnswersLateReopenTheBreaker() {
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        // Redis 200 ms away: every trial is answered, after 200 ms, while other answers keep the liveness fresh.
        for (int i = 0; i < 20 && breaker.getState() == CircuitBreaker.State.HALF_OPEN; i++) {
            Mono<String> late = Mono.fromSupplier(() -> {
                nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(200));
                liveness.answered();
                return "link";
            });
            StepVerifier.create(
                            RedisCalls.strictly(late, liveness).transformDeferred(CircuitBreakerOperator.of(breaker)))
                    .expectError(RedisCalls.SlowTrial.class)
                    .verify(Duration.ofSeconds(1));
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void halfOpenTrialsAnsweredInTimeCloseTheBreaker() {
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        for (int i = 0; i < 20; i++) {
            Mono<String> prompt = Mono.fromSupplier(() -> {
                nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(2));
                liveness.answered();
                return "link";
            });
            StepVerifier.create(
                            RedisCalls.strictly(prompt, liveness).transformDeferred(CircuitBreakerOperator.of(breaker)))
                    .expectNext("link")
                    .verifyComplete();
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void timeoutsWhileRedisAnswersNothingOpenTheBreaker() {
        liveness.answered();
        for (int i = 0; i < 25; i++) {
            nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(100)); // a hung Redis: nothing comes back at all
            breaker.onError(100, TimeUnit.MILLISECONDS, new TimeoutException("no answer"));
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void callGivesUpAfterOneTimeoutWhenRedisAnswersNothing() {
        VirtualTimeScheduler timer = VirtualTimeScheduler.create();
        StepVerifier.create(Mono.never().timeout(RedisCalls.giveUp(Duration.ofMillis(100), 4, liveness, timer)))
                .then(() -> timer.advanceTimeBy(Duration.ofMillis(99)))
                .expectNoEvent(Duration.ZERO)
                .then(() -> timer.advanceTimeBy(Duration.ofMillis(1)))
                .expectError(TimeoutException.class)
                .verify(Duration.ofSeconds(1));
    }

    @Test
    void callWaitsOnWhileRedisAnswersOtherCallsUpToItsLimit() {
        VirtualTimeScheduler timer = VirtualTimeScheduler.create();
        Runnable busyButAnswering = () -> { // 100 ms pass, and Redis answered something in them
            nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
            liveness.answered();
            timer.advanceTimeBy(Duration.ofMillis(100));
        };
        StepVerifier.create(Mono.never().timeout(RedisCalls.giveUp(Duration.ofMillis(100), 4, liveness, timer)))
                .then(busyButAnswering)
                .then(busyButAnswering)
                .then(busyButAnswering)
                .then(busyButAnswering)
                .expectNoEvent(Duration.ZERO) // 400 ms: still waiting
                .then(busyButAnswering)
                .expectError(TimeoutException.class) // 500 ms: the limit
                .verify(Duration.ofSeconds(1));
    }

    @Test
    void refusedConnectionsOpenTheBreakerEvenRightAfterAnAnswer() {
        for (int i = 0; i < 25; i++) {
            liveness.answered();
            breaker.onError(1, TimeUnit.MILLISECONDS, new IOException("Connection reset by peer"));
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void redisKilledAfterALongRunOfAnswersOpensTheBreakerWithinTenFailedCalls() {
        for (int i = 0; i < 200; i++) {
            liveness.answered();
            breaker.onSuccess(1, TimeUnit.MILLISECONDS);
        }
        for (int i = 0; i < 10; i++) { // fault check F1 of .ci/run: kill -9, every call refused at once
            breaker.onError(1, TimeUnit.MILLISECONDS, new IOException("Connection refused"));
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }
}
