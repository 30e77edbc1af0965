package dev.shortgate.codegen.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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

    /** One take of as many codes as URLs; a URL the pool had no code left for gets a fresh random one. */
    @Override
    public Mono<List<Optional<String>>> firstOfEach(List<String> urls, int length) {
        return pool.take(length, urls.size())
                .collectList()
                .onErrorResume(error -> Mono.just(List.of()))
                .map(taken -> {
                    List<Optional<String>> codes = new ArrayList<>(urls.size());
                    for (int n = 0; n < urls.size(); n++) {
                        if (n < taken.size()) {
                            codes.add(Optional.of(taken.get(n)));
                        } else {
                            misses.increment();
                            codes.add(Optional.of(RandomCodes.next(length)));
                        }
                    }
                    return codes;
                });
    }
}
