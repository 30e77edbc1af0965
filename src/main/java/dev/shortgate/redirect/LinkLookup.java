package dev.shortgate.redirect;

import java.util.Optional;

import dev.shortgate.link.Link;
import reactor.core.publisher.Mono;

/**
 * Finds the link for a code. Never emits empty: an unknown code is a {@link Found} with no link. Fails with
 * {@link NearCache.Shed} when the pod has too many lookups in flight, and with another error when the database
 * cannot answer in time for a code no cache holds.
 */
interface LinkLookup {

    Mono<Found> find(String code);

    /**
     * The answer for a code and the tier it came from: {@link Tier#NEAR} when the near cache held it, otherwise
     * the tier the lookup reached (also for requests that joined a lookup another request had started). The near
     * cache keeps these; the fast path keeps the answer it prepares for the link on the one it holds.
     */
    final class Found {

        private final Link link; // null: the code is unknown
        private final Tier tier;
        private RedirectAnswer answer; // made on first use by the fast path; immutable, so a racy set is harmless

        private Found(Link link, Tier tier) {
            this.link = link;
            this.tier = tier;
        }

        static Found of(Link link, Tier tier) {
            return new Found(link, tier);
        }

        Optional<Link> link() {
            return Optional.ofNullable(link);
        }

        Tier tier() {
            return tier;
        }

        /** The link's prepared answer, made once per cached entry; {@code null} for an unknown code. */
        RedirectAnswer answer(RedirectAnswer.Factory factory) {
            RedirectAnswer prepared = answer;
            if (prepared == null && link != null) {
                prepared = factory.of(link);
                answer = prepared;
            }
            return prepared;
        }
    }
}
