package dev.shortgate.codegen.sequence;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.codegen.CodeSpaceExhaustedException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/** Counter values come from reserved blocks: never twice, one reservation per block, gaps only when a pod stops. */
class SequenceBlocksTest {

    /** A shared counter, as the database row is; counts reservations. */
    static final class Counter implements SequenceBlocks.Store {
        final AtomicLong next = new AtomicLong();
        final AtomicInteger reservations = new AtomicInteger();

        @Override
        public Mono<Long> reserve(int length, long size) {
            return Mono.fromSupplier(() -> {
                        reservations.incrementAndGet();
                        return next.getAndAdd(size);
                    })
                    .subscribeOn(Schedulers.parallel());
        }
    }

    @Test
    void twoPodsSharingACounterNeverGetTheSameValue() {
        Counter shared = new Counter();
        SequenceBlocks podA = new SequenceBlocks(shared, 100);
        SequenceBlocks podB = new SequenceBlocks(shared, 100);

        List<Long> values = Flux.range(0, 5000)
                .flatMap(i -> (i % 2 == 0 ? podA : podB).next(7), 64)
                .collectList()
                .block(Duration.ofSeconds(30));

        assertThat(values).hasSize(5000).doesNotHaveDuplicates();
        assertThat(shared.reservations.get())
                .as("one reservation per block of 100")
                .isBetween(50, 52);
    }

    @Test
    void aRestartedPodContinuesAfterTheLastReservedBlockLeavingAGap() {
        Counter shared = new Counter();
        SequenceBlocks first = new SequenceBlocks(shared, 1000);
        StepVerifier.create(first.next(5)).expectNext(0L).verifyComplete();
        SequenceBlocks restarted = new SequenceBlocks(shared, 1000);
        StepVerifier.create(restarted.next(5)).expectNext(1000L).verifyComplete();
    }

    @Test
    void theLastBlockStopsAtTheEndOfTheSpaceAndThenTheSpaceIsExhausted() {
        Counter shared = new Counter();
        SequenceBlocks blocks = new SequenceBlocks(shared, 50);
        List<Long> all =
                Flux.range(0, 62).concatMap(i -> blocks.next(1)).collectList().block(Duration.ofSeconds(10));
        assertThat(all).hasSize(62).doesNotHaveDuplicates().allSatisfy(v -> assertThat(v)
                .isBetween(0L, 61L));
        StepVerifier.create(blocks.next(1))
                .expectError(CodeSpaceExhaustedException.class)
                .verify(Duration.ofSeconds(5));
    }
}
