package dev.shortgate.redirect.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** The JIT's activity is its compiling time over the wall time since the last mark. */
class JitActivityTest {

    final AtomicLong compilingMillis = new AtomicLong();
    final AtomicLong nanos = new AtomicLong();
    final JitActivity jit = new JitActivity(compilingMillis::get, nanos::get);

    @Test
    void busyIsCompilingTimeOverWallTimeSinceTheMark() {
        nanos.addAndGet(2_000_000_000L);
        compilingMillis.addAndGet(3_000); // two compiler threads, 1.5 s each

        assertThat(jit.elapsedMillis()).isEqualTo(2_000);
        assertThat(jit.busy()).isCloseTo(1.5, within(1e-9));

        jit.mark();
        nanos.addAndGet(1_000_000_000L);
        compilingMillis.addAndGet(100);

        assertThat(jit.busy()).as("only what came after the mark").isCloseTo(0.1, within(1e-9));
    }

    @Test
    void noTimePassedIsNotBusy() {
        compilingMillis.addAndGet(5_000);

        assertThat(jit.busy()).isZero();
    }

    @Test
    void hotSpotReportsItsCompilersTime() {
        assertThat(JitActivity.ofThisJvm()).isNotSameAs(JitActivity.UNKNOWN);
    }
}
