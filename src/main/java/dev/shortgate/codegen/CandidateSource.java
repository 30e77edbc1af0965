package dev.shortgate.codegen;

import java.util.List;

import org.springframework.modulith.NamedInterface;
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
}
