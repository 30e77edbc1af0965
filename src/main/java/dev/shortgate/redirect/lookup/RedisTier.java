package dev.shortgate.redirect.lookup;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.shortgate.link.Link;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The shared tier between every pod's near cache and the database. With Redis configured it is
 * {@link RedisLinks}; without, {@link #NONE}, which holds nothing. The choice is made once, when the application is
 * wired ({@code RedirectConfiguration}); nothing asks at runtime.
 */
public interface RedisTier {

    /**
     * What this tier holds for a code: the link, or an empty {@link Optional} when it holds nothing for it. Fails
     * when this tier cannot answer in time (the caller then asks the database).
     */
    Mono<Optional<Link>> find(String code);

    /**
     * What this tier holds for these codes, read in one call (Redis: one {@code MGET}): the codes it holds a link
     * for, with their links; codes it holds nothing for are left out. Fails when this tier cannot answer in time.
     */
    default Mono<Map<String, Link>> findAll(List<String> codes) {
        return Mono.just(Map.of());
    }

    /**
     * The codes this tier holds a link for, in pages of about {@code page} codes as the tier walks its keys (Redis:
     * one {@code SCAN} call each, on every master of a Cluster), in no particular order; may repeat a code. Fails when
     * a page cannot be read in time. This default holds none.
     */
    default Flux<List<String>> codes(int page) {
        return Flux.empty();
    }

    /**
     * Keeps what a lookup found below this tier, only where this tier holds nothing for the code, so a write-back
     * never overwrites a change. Best effort, in the background: a failure is dropped.
     */
    void keep(Link link);

    /** Writes a created or changed link (a tombstone for a deleted one) over whatever this tier holds. */
    Mono<Void> put(Link link);

    /** Writes the links of a group of creates; one bounded call for all of them in Redis. */
    default Mono<Void> putAll(List<Link> links) {
        return Flux.fromIterable(links).flatMap(this::put).then();
    }

    /**
     * Writes links only where this tier holds nothing for their codes, as {@link #keep} does, but reporting whether
     * the tier took them: a retried announcement of new links, which must not overwrite a later change.
     */
    default Mono<Void> keepAll(List<Link> links) {
        links.forEach(this::keep);
        return Mono.empty();
    }

    /** Drops what this tier holds for the code. */
    Mono<Void> delete(String code);

    /** No shared tier: holds nothing, and writes go nowhere. */
    RedisTier NONE = new RedisTier() {
        @Override
        public Mono<Optional<Link>> find(String code) {
            return Mono.just(Optional.empty());
        }

        @Override
        public void keep(Link link) {}

        @Override
        public Mono<Void> put(Link link) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> delete(String code) {
            return Mono.empty();
        }
    };
}
