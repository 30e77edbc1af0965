package dev.shortgate.redirect.invalidation;

import java.util.List;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Tells every pod that a link changed, so each drops its near-cache entry for the code. With Redis configured it
 * is {@link RedisInvalidationBus} (pub/sub); without, {@link #LOCAL}: a single pod updates its own near cache
 * directly and has no one else to tell. Chosen once, in {@code RedirectConfiguration}.
 */
public interface InvalidationBus {

    /** Tells every pod (this one included) to drop its near-cache entry for the code. */
    Mono<Void> publish(String code);

    /** Publishes the codes of a group of creates; one bounded call for all of them over Redis. */
    default Mono<Void> publishAll(List<String> codes) {
        return Flux.fromIterable(codes).flatMap(this::publish).then();
    }

    /**
     * Subscribes to the codes other pods change. Emits once the subscription is active, with those codes as they
     * arrive: a long-lived flux that errors when the channel drops, so the caller can subscribe again. Errors
     * instead of emitting when the channel cannot be subscribed to.
     */
    Mono<Flux<String>> invalidations();

    /** One pod alone: messages go nowhere, and none arrive. */
    InvalidationBus LOCAL = new InvalidationBus() {
        @Override
        public Mono<Void> publish(String code) {
            return Mono.empty();
        }

        @Override
        public Mono<Flux<String>> invalidations() {
            return Mono.just(Flux.never());
        }
    };
}
