package dev.shortgate.codegen.sequence;

import java.util.List;

import dev.shortgate.codegen.CandidateSource;
import reactor.core.publisher.Mono;

/**
 * The {@code sequence} strategy: each round is one code, the keyed permutation ({@link FeistelPermutation}) of the
 * next counter value of its length. Distinct counter values give distinct codes, so codes made this way never
 * collide with each other; a later round happens only when a code made another way (an alias, or a code from
 * before a switch of strategy) already holds it.
 */
public final class SequenceCandidates implements CandidateSource {

    private final SequenceBlocks counters;
    private final FeistelPermutation permutation;

    public SequenceCandidates(SequenceBlocks counters, FeistelPermutation permutation) {
        this.counters = counters;
        this.permutation = permutation;
    }

    @Override
    public Mono<List<String>> round(String url, int length, int round) {
        return counters.next(length).map(value -> List.of(permutation.code(value, length)));
    }
}
