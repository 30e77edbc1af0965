package dev.shortgate.redirect;

import dev.shortgate.link.Link;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The shared tier between every pod's near cache and the database. With Redis configured it is
 * {@link RedisLinks}; without, {@link #NONE}, which holds nothing and tells no other pod anything. The choice is
 * made once, when the application is wired ({@link RedirectConfiguration}); nothing asks at runtime.
 */
interface RedisTier {

    /**
     * The answer for a code from this tier, or from {@code below} when this tier does not hold it or cannot
     * answer in time; what {@code below} finds is written back here. Errors only when {@code below} does.
     */
    Mono<LinkLookup.Found> find(String code, Below below);

    /** What lies below this tier, told whether this tier answered (it does not hold the code) or could not answer. */
    @FunctionalInterface
    interface Below {
        Mono<LinkLookup.Found> find(boolean answered);
    }

    /** Writes a created or changed link (a tombstone for a deleted one) over whatever this tier holds. */
    Mono<Void> put(Link link);

    /** Drops what this tier holds for the code. */
    Mono<Void> delete(String code);

    /** Tells every pod (this one included) to drop its near-cache entry for the code. */
    Mono<Void> publishInvalidation(String code);

    /** Codes other pods changed; long-lived, and errors when the channel drops so the caller can resubscribe. */
    Flux<String> invalidations();

    /** No shared tier: lookups go straight below, writes and messages go nowhere. */
    RedisTier NONE = new RedisTier() {
        @Override
        public Mono<LinkLookup.Found> find(String code, Below below) {
            return below.find(true);
        }

        @Override
        public Mono<Void> put(Link link) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> delete(String code) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> publishInvalidation(String code) {
            return Mono.empty();
        }

        @Override
        public Flux<String> invalidations() {
            return Flux.never();
        }
    };
}
