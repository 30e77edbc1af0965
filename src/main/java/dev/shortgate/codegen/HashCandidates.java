package dev.shortgate.codegen;

import java.util.List;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;

/**
 * The {@code hash} strategy: round 0 hashes the URL alone, so every pod proposes the same candidates for the same
 * URL; later rounds hash it salted with a timestamp and nonce.
 */
final class HashCandidates implements CandidateSource {

    private final CodeGenerator generator;
    private final Supplier<String> salts;

    HashCandidates(CodeGenerator generator, Supplier<String> salts) {
        this.generator = generator;
        this.salts = salts;
    }

    @Override
    public Mono<List<String>> round(String url, int length, int round) {
        return Mono.fromSupplier(() -> generator.candidates(url, length, round == 0 ? null : salts.get()));
    }
}
