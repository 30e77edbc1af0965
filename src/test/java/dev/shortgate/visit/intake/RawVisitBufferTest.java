package dev.shortgate.visit.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.WriteTurns;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

class RawVisitBufferTest {

    private static final Duration WRITE = Duration.ofSeconds(1); // each raw batch takes this long to write

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicBoolean countsBehind = new AtomicBoolean();
    private final AtomicInteger writing = new AtomicInteger();
    private final AtomicInteger mostWritingAtOnce = new AtomicInteger();
    private final AtomicInteger batchesWritten = new AtomicInteger();

    /** Batches of 2, written at most two at a time ({@code write-concurrency} 2), each taking {@link #WRITE}. */
    private RawVisitBuffer startedWith(int rows) {
        RawVisitBuffer buffer = new RawVisitBuffer(
                VisitRecorderTest.props(true, 100, 2, 100),
                batch -> Mono.defer(() -> {
                    mostWritingAtOnce.accumulateAndGet(writing.incrementAndGet(), Math::max);
                    return Mono.delay(WRITE, time)
                            .doOnNext(tick -> batchesWritten.incrementAndGet())
                            .doOnTerminate(writing::decrementAndGet)
                            .then();
                }),
                time,
                registry,
                countsBehind::get);
        buffer.start();
        for (int i = 0; i < rows; i++) {
            buffer.offer(new RawVisit(new byte[12], "c" + i, Instant.EPOCH, null, "agent", null));
        }
        return buffer;
    }

    private RawVisitBuffer startedWithEightRows() {
        return startedWith(8);
    }

    @Test
    void aRawBatchWaitsForTheOneBeingWrittenWhileNoFurtherBatchWaitsBehindIt() {
        RawVisitBuffer buffer = startedWith(4); // two batches: the second is all that waits

        time.advanceTimeBy(WRITE);
        assertThat(batchesWritten).hasValue(1);
        time.advanceTimeBy(WRITE.plus(WriteTurns.POLL));

        assertThat(mostWritingAtOnce).hasValue(1);
        assertThat(batchesWritten).hasValue(2);
        assertThat(buffer.held()).isZero();
    }

    @Test
    void rawBatchesAreWrittenUpToTheConfiguredConcurrencyWhileTwoBatchesWaitBeyondThoseBeingWritten() {
        RawVisitBuffer buffer = startedWithEightRows(); // four batches: six rows soon wait beyond the first

        time.advanceTimeBy(WRITE.plus(WriteTurns.POLL));
        assertThat(mostWritingAtOnce).hasValue(2);
        assertThat(batchesWritten).hasValue(2);
        time.advanceTimeBy(WRITE.plus(WriteTurns.POLL).multipliedBy(2));

        assertThat(batchesWritten).hasValue(4);
        assertThat(buffer.held()).isZero();
    }

    @Test
    void rawBatchesAreWrittenOneAtATimeWhileTheCountsAreBehind() {
        countsBehind.set(true);
        RawVisitBuffer buffer = startedWithEightRows();

        time.advanceTimeBy(WRITE.multipliedBy(2).plus(WriteTurns.POLL.multipliedBy(2)));

        assertThat(mostWritingAtOnce).hasValue(1);
        assertThat(batchesWritten).hasValue(2);
        assertThat(buffer.held()).isEqualTo(4); // waiting their turn, still held and bounded by the capacity

        countsBehind.set(false); // the counts caught up: the rest are written
        time.advanceTimeBy(WRITE.plus(WriteTurns.POLL).multipliedBy(2));

        assertThat(batchesWritten).hasValue(4);
        assertThat(buffer.held()).isZero();
    }

    @Test
    void aBatchWaitingForItsTurnAtShutdownIsCountedAsAShutdownDrop() {
        countsBehind.set(true);
        RawVisitBuffer buffer = startedWithEightRows();
        buffer.close();

        List<Object> done = new java.util.ArrayList<>();
        buffer.drain(Duration.ofMillis(1500)).subscribe(null, null, () -> done.add("drained"));
        time.advanceTimeBy(Duration.ofSeconds(2));

        assertThat(done).containsExactly("drained");
        assertThat(batchesWritten).hasValue(1);
        assertThat(registry.get("shortgate.visits.dropped")
                        .tag("reason", "shutdown")
                        .counter()
                        .count())
                .isEqualTo(6);
        assertThat(buffer.held()).isZero();
    }
}
