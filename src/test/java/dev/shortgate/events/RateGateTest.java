package dev.shortgate.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Ticker;
import org.junit.jupiter.api.Test;

class RateGateTest {

    final AtomicLong nanos = new AtomicLong(-5_000_000_000L);
    final Ticker ticker = nanos::get;

    void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    int taken(RateGate gate, int tries) {
        int taken = 0;
        for (int i = 0; i < tries; i++) {
            if (gate.tryTake()) {
                taken++;
            }
        }
        return taken;
    }

    @Test
    void aFullBucketGivesASecondsWorthAtOnceAndThenRefuses() {
        RateGate gate = new RateGate(1000, ticker);
        assertThat(taken(gate, 5000)).isEqualTo(1000);
        assertThat(gate.tryTake()).isFalse();
    }

    @Test
    void tokensComeBackInProportionToTheTimePassed() {
        RateGate gate = new RateGate(1000, ticker);
        taken(gate, 1000);
        advance(Duration.ofMillis(100));
        assertThat(taken(gate, 5000)).isEqualTo(100);
        advance(Duration.ofNanos(999_999));
        assertThat(gate.tryTake()).isFalse();
        advance(Duration.ofNanos(1));
        assertThat(gate.tryTake()).isTrue();
        assertThat(gate.tryTake()).isFalse();
    }

    @Test
    void anIdleBucketFillsToItsCapacityAndNoFurther() {
        RateGate gate = new RateGate(10, ticker);
        taken(gate, 10);
        advance(Duration.ofHours(1));
        assertThat(taken(gate, 100)).isEqualTo(10);
    }

    @Test
    void refusalsDoNotDelayTheRefill() {
        RateGate gate = new RateGate(10, ticker);
        taken(gate, 10);
        for (int i = 0; i < 9; i++) {
            advance(Duration.ofMillis(10));
            assertThat(taken(gate, 1000)).isZero();
        }
        advance(Duration.ofMillis(10));
        assertThat(taken(gate, 1000)).isEqualTo(1);
    }

    @Test
    void aRateOfZeroIsRefused() {
        assertThatThrownBy(() -> new RateGate(0, ticker)).isInstanceOf(IllegalArgumentException.class);
    }
}
