package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

class WriteTurnsTest {

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final AtomicBoolean behind = new AtomicBoolean();
    private final WriteTurns turns = new WriteTurns(time, behind::get);

    @Test
    void aSecondWriteWaitsForTheFirstToEndWhileTheWritesKeepUp() {
        Runnable first = turns.take().block();

        StepVerifier.withVirtualTime(turns::take, () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .expectNoEvent(WriteTurns.POLL.multipliedBy(10))
                .then(first)
                .thenAwait(WriteTurns.POLL)
                .expectNextCount(1)
                .verifyComplete();

        assertThat(turns.writing()).isOne();
    }

    @Test
    void aSecondWriteStartsAlongsideTheFirstOnceTheWritesAreBehind() {
        turns.take().block();

        StepVerifier.withVirtualTime(turns::take, () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .expectNoEvent(WriteTurns.POLL)
                .then(() -> behind.set(true))
                .thenAwait(WriteTurns.POLL)
                .expectNextCount(1)
                .verifyComplete();

        assertThat(turns.writing()).isEqualTo(2);
    }

    @Test
    void aReleaseRunTwiceFreesOneTurnAndAWriteCancelledWhileWaitingTakesNone() {
        Runnable first = turns.take().block();
        Disposable waiting = turns.take().subscribe();
        time.advanceTimeBy(WriteTurns.POLL.multipliedBy(3));
        waiting.dispose();

        first.run();
        first.run();
        time.advanceTimeBy(WriteTurns.POLL.multipliedBy(3));

        assertThat(turns.writing()).isZero();
    }
}
