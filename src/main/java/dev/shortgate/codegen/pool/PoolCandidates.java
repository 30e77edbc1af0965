package dev.shortgate.codegen.pool;

import java.util.List;

import dev.shortgate.codegen.CandidateSource;
import io.micrometer.core.instrument.Counter;
import reactor.core.publisher.Mono;

/**
 * The {@code pool} strategy: each round is one code taken from the shared pool. When the pool of that length is
 * empty (a length the filler does not keep, a burst faster than the filler, the pool's store unreachable) the
 * round is a fresh random code instead, counted in {@code shortgate.codegen.pool.misses}: a create never fails for
 * want of a pooled code, and the primary key still decides.
 */
public final class PoolCandidates implements CandidateSource {

    private final CodePool pool;
    private final Counter misses;

    public PoolCandidates(CodePool pool, Counter misses) {
        this.pool = pool;
        this.misses = misses;
    }

    @Override
    public Mono<List<String>> round(String url, int length, int round) {
        return pool.take(length)
                .onErrorResume(error -> Mono.empty())
                .switchIfEmpty(Mono.fromSupplier(() -> {
                    misses.increment();
                    return RandomCodes.next(length);
                }))
                .map(List::of);
    }
}
