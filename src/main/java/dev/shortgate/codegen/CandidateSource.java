package dev.shortgate.codegen;

import java.util.List;
import java.util.Optional;

import org.springframework.modulith.NamedInterface;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Where candidate codes come from: the configured strategy ({@code shortgate.codegen.strategy}). A strategy decides
 * only which codes are tried, in which order; the database's primary key still decides who owns each one.
 */
@NamedInterface("codes")
public interface CandidateSource {

    /**
     * The candidates of one round, in order (never empty unless the code space of this length is used up).
     *
     * @param url    the URL being shortened, exactly as stored
     * @param length the code length, 1 to 8
     * @param round  0 for the first round; later rounds come only after every candidate before was taken
     */
    Mono<List<String>> round(String url, int length, int round);

    /**
     * The first candidate of round 0 for each URL, in the order of {@code urls}: empty for a URL whose round came
     * back empty or failed. A group of creates asks once; a strategy that can hand out many codes in one call
     * (the pool's {@code SPOP key count}) overrides this, the others answer URL by URL.
     */
    default Mono<List<Optional<String>>> firstOfEach(List<String> urls, int length) {
        return Flux.fromIterable(urls)
                .flatMapSequential(
                        url -> Mono.defer(() -> round(url, length, 0))
                                .map(list -> list.isEmpty() ? Optional.<String>empty() : Optional.of(list.get(0)))
                                .defaultIfEmpty(Optional.empty())
                                .onErrorResume(e -> Mono.just(Optional.empty())),
                        64)
                .collectList();
    }
}
