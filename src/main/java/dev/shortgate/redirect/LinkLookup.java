package dev.shortgate.redirect;

import java.util.Optional;

import dev.shortgate.link.Link;
import reactor.core.publisher.Mono;

/** Finds the link for a code. Never emits empty: an unknown code is a {@link Found} with no link. */
interface LinkLookup {

    Mono<Found> find(String code);

    /** The answer and the tier it came from. */
    record Found(Optional<Link> link, Tier tier) {
    }
}
