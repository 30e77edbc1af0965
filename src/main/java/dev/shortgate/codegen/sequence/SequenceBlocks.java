package dev.shortgate.codegen.sequence;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.codegen.Base62;
import dev.shortgate.codegen.CodeGenerator;
import dev.shortgate.codegen.CodeSpaceExhaustedException;
import reactor.core.publisher.Mono;

/**
 * Counter values for the {@code sequence} strategy, one counter per code length, handed out from blocks that this pod
 * reserved in the shared store: pods never get the same value, one reservation serves {@code blockSize} creates,
 * and a pod that stops (or crashes) only leaves the rest of its block unused, a gap.
 */
public final class SequenceBlocks {

    /** Reserves a block of counter values for one code length. */
    @FunctionalInterface
    interface Store {
        /** Moves the shared counter of this length on by {@code size}; emits the first value of the block. */
        Mono<Long> reserve(int length, long size);
    }

    private static final Duration FOREVER = Duration.ofMillis(Long.MAX_VALUE);

    private final Store store;
    private final long blockSize;
    private final Block[] blocks = new Block[CodeGenerator.MAX_LENGTH + 1];
    private final Object[] locks = new Object[CodeGenerator.MAX_LENGTH + 1];
    private final Reservation[] reserving = new Reservation[CodeGenerator.MAX_LENGTH + 1];

    public SequenceBlocks(Store store, long blockSize) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("block size must be positive, got " + blockSize);
        }
        this.store = store;
        this.blockSize = blockSize;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
    }

    /** The next counter value of this length; a {@link CodeSpaceExhaustedException} once every value was given. */
    Mono<Long> next(int length) {
        return Mono.defer(() -> {
            Block block = blocks[length];
            if (block != null) {
                long value = block.next.getAndIncrement();
                if (value < block.end) {
                    return Mono.just(value);
                }
            }
            return reserve(length, block).then(next(length));
        });
    }

    /**
     * One reservation in flight per used-up block: callers that find the same block used up wait for the same
     * reservation; a caller that finds a newer block used up starts the next one.
     */
    private Mono<Void> reserve(int length, Block usedUp) {
        synchronized (locks[length]) {
            if (blocks[length] != usedUp) {
                return Mono.empty(); // another caller already put a new block in place
            }
            Reservation pending = reserving[length];
            if (pending == null || pending.replaces != usedUp) {
                long space = Base62.spaceSize(length);
                Mono<Void> reservation = store.reserve(length, blockSize)
                        .switchIfEmpty(Mono.error(() -> new IllegalStateException("no counter for length " + length)))
                        .doOnNext(start -> {
                            if (start >= space) {
                                throw new CodeSpaceExhaustedException(length, 0);
                            }
                            synchronized (locks[length]) {
                                blocks[length] = new Block(start, Math.min(space, start + blockSize));
                            }
                        })
                        .then()
                        .cache(done -> FOREVER, error -> Duration.ZERO, () -> FOREVER); // a failure is tried afresh
                pending = new Reservation(usedUp, reservation);
                reserving[length] = pending;
            }
            return pending.mono;
        }
    }

    /** A reservation of the block that follows {@code replaces}. */
    private record Reservation(Block replaces, Mono<Void> mono) {}

    private static final class Block {
        final AtomicLong next;
        final long end;

        Block(long start, long end) {
            this.next = new AtomicLong(start);
            this.end = end;
        }
    }
}
