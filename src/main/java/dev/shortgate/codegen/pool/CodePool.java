package dev.shortgate.codegen.pool;

import java.util.Collection;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The shared pool of the {@code pool} strategy: codes checked free in advance, one set per code length. Taking is
 * atomic, so no two creates, on any pods, take the same code; a code taken is then claimed by the link table's
 * primary key as any other candidate, so a pool that lost its contents (a Redis loss) and was refilled can never
 * hand out a code a link already holds.
 */
public interface CodePool {

    /** Takes one code of this length out of the pool; empty when the pool holds none. */
    Mono<String> take(int length);

    /**
     * Takes up to {@code count} codes of this length out of the pool: fewer, or none, when it holds fewer (or a take
     * failed). By default {@code count} takes at once.
     */
    default Flux<String> take(int length, int count) {
        return Flux.range(0, count).flatMapSequential(i -> take(length).onErrorResume(e -> Mono.empty()), 64);
    }

    /** How many codes of this length the pool holds. */
    Mono<Long> size(int length);

    /** Adds codes of this length. */
    Mono<Void> add(int length, Collection<String> codes);
}
