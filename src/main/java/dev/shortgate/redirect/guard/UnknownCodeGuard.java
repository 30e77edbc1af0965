package dev.shortgate.redirect.guard;

import java.util.List;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Stops lookups of codes that were never created before they reach the database: a Bloom filter of every code
 * (https://en.wikipedia.org/wiki/Bloom_filter), so a flood of random well-formed codes is answered 404 without a query. A Bloom filter
 * never says "absent" for a code it holds, so a code it was told of always gets through; it may say "present" for
 * a code it does not hold (the false-positive rate), which only costs that code a query.
 *
 * <p>With Redis configured the filter is shared by every pod ({@link RedisCodeGuard}), so a code created on one pod
 * is known to the others before the create answers; without Redis each pod keeps its own ({@link LocalCodeGuard}).
 * Until a filter has been built from the database, or when it cannot be read, it says "may exist" to everything.
 */
public interface UnknownCodeGuard {

    /** {@code false} only when the code was certainly never created; never fails. */
    Mono<Boolean> mayExist(String code);

    /** Records a code: every create, and any code the database finds that the filter did not hold. */
    Mono<Void> add(String code);

    /** Records the codes of a group of creates; one Redis call for all of them where the guard is shared. */
    default Mono<Void> addAll(List<String> codes) {
        return Flux.fromIterable(codes).flatMap(this::add).then();
    }

    /** Whether the filter has been built and can be read, for the {@code shortgate.guard.ready} gauge. */
    boolean ready();

    /** No guard ({@code shortgate.redirect.guard.enabled=false}): every code may exist. */
    UnknownCodeGuard OFF = new UnknownCodeGuard() {
        @Override
        public Mono<Boolean> mayExist(String code) {
            return Mono.just(true);
        }

        @Override
        public Mono<Void> add(String code) {
            return Mono.empty();
        }

        @Override
        public boolean ready() {
            return false;
        }
    };
}
