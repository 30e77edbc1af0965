package dev.shortgate.codegen;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.modulith.NamedInterface;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Finds a free code for a URL by trying candidates in order, round after round. The candidates come from the
 * configured strategy ({@link CandidateSource}); what follows describes the {@code hash} strategy.
 *
 * <p>Round 0 hashes the URL alone, so every pod proposes the same candidates for the same URL and the
 * database's unique key settles races. When all four candidates of a round are taken by other URLs, the next
 * round hashes the URL salted with a timestamp and nonce. Rounds are bounded; when they run out the result is a
 * {@link CodeSpaceExhaustedException}, never an endless loop. The URL that is stored is always the original:
 * the salt only changes the hash input.
 */
@NamedInterface("codes")
public final class CodeAllocator {

    private final CandidateSource candidates;
    private final int maxRounds;

    /** Hash candidates ({@code hash} strategy), salted after round 0 by {@code salts}. */
    public CodeAllocator(CodeGenerator generator, int maxRounds, Supplier<String> salts) {
        this(new HashCandidates(generator, salts), maxRounds);
    }

    /** Candidates of any strategy. */
    public CodeAllocator(CandidateSource candidates, int maxRounds) {
        if (maxRounds < 1) {
            throw new IllegalArgumentException("maxRounds must be at least 1, got " + maxRounds);
        }
        this.candidates = candidates;
        this.maxRounds = maxRounds;
    }

    /** Salts of the form {@code <epoch millis>-<nonce>}: a timestamp, made unique within this process. */
    public static Supplier<String> timestampSalts(Clock clock) {
        AtomicLong nonce = new AtomicLong();
        return () -> clock.millis() + "-" + nonce.incrementAndGet();
    }

    /**
     * Claims the first free candidate.
     *
     * @param claim    tries to take one code; emits the result when the code is now this URL's (including when
     *                 it already was), completes empty when another URL holds it, and errors on failure
     * @param existing consulted before each salted round, so a concurrent creator's salted code is reused
     *                 rather than a second code being made; complete empty when there is none
     * @return the first successful claim, or a {@link CodeSpaceExhaustedException}
     */
    public <T> Mono<T> allocate(String url, int length, Function<String, Mono<T>> claim, Mono<T> existing) {
        CodeGenerator.checkLength(length);
        return Flux.range(0, maxRounds)
                .concatMap(round -> round == 0
                        ? tryRound(url, length, 0, claim)
                        : existing.switchIfEmpty(Mono.defer(() -> tryRound(url, length, round, claim))))
                .next()
                .switchIfEmpty(Mono.error(() -> new CodeSpaceExhaustedException(length, maxRounds)));
    }

    /**
     * The first candidate of round 0, for creating many links with one multi-row insert; a caller whose candidate
     * turns out taken goes through {@link #allocate} for that link.
     */
    public Mono<String> firstCandidate(String url, int length) {
        CodeGenerator.checkLength(length);
        return candidates
                .round(url, length, 0)
                .filter(list -> !list.isEmpty())
                .map(list -> list.get(0))
                .switchIfEmpty(Mono.error(() -> new CodeSpaceExhaustedException(length, 1)));
    }

    /**
     * {@link #firstCandidate} for many URLs of one length at once, in their order: empty for a URL that has none
     * (its strategy failed it), which the caller then creates through {@link #allocate}.
     */
    public Mono<List<Optional<String>>> firstCandidates(List<String> urls, int length) {
        CodeGenerator.checkLength(length);
        return candidates.firstOfEach(urls, length);
    }

    private <T> Mono<T> tryRound(String url, int length, int round, Function<String, Mono<T>> claim) {
        return candidates
                .round(url, length, round)
                .flatMapMany(Flux::fromIterable)
                .concatMap(claim)
                .next();
    }
}
