package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.Test;

/**
 * What counts against the Redis breaker: what Redis did, not what the pod did. Timeouts while Redis keeps
 * answering other calls are the pod's own queueing (a saturated CPU) and leave the breaker closed; timeouts
 * while Redis answers nothing, and refused or reset connections, open it.
 */
class RedisBreakerTest {

    final AtomicLong nanos = new AtomicLong();
    final RedisLinks.Liveness liveness = new RedisLinks.Liveness(nanos::get, Duration.ofMillis(100));
    final CircuitBreaker breaker = CircuitBreaker.of("redis", RedisLinks.breakerConfig(liveness));

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
    void timeoutsWhileRedisAnswersNothingOpenTheBreaker() {
        liveness.answered();
        for (int i = 0; i < 25; i++) {
            nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(100)); // a hung Redis: nothing comes back at all
            breaker.onError(100, TimeUnit.MILLISECONDS, new TimeoutException("no answer"));
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void refusedConnectionsOpenTheBreakerEvenRightAfterAnAnswer() {
        for (int i = 0; i < 25; i++) {
            liveness.answered();
            breaker.onError(1, TimeUnit.MILLISECONDS, new IOException("Connection reset by peer"));
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }
}
