package dev.shortgate.redirect.lookup;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.link.Link;
import dev.shortgate.redirect.http.RedirectAnswer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Finds the link for a code. Never emits empty: an unknown code is a {@link Found} with no link. Fails with
 * {@link NearCache.Shed} when the pod has too many lookups in flight, and with another error when the database
 * cannot answer in time for a code no cache holds.
 */
public interface LinkLookup {

    Mono<Found> find(String code);

    /**
     * Puts the links for these codes into the near cache ahead of traffic (a starting pod's warm-up), without
     * overwriting what it already holds; completes with how many codes were preloaded. This default looks each code
     * up, 64 at a time.
     */
    default Mono<Integer> preload(List<String> codes) {
        return Flux.fromIterable(codes)
                .flatMap(code -> find(code).onErrorResume(error -> Mono.empty()), 64)
                .count()
                .map(Long::intValue);
    }

    /**
     * Puts links the shared tier holds into the near cache, whichever they are, until {@code max} are held (counted
     * on {@code held}, so a caller that stops it early knows how far it got) or the near cache is full; asks nothing
     * but the shared tier, and never overwrites what the near cache holds. This default holds nothing.
     */
    default Mono<Void> preloadWorkingSet(int max, AtomicInteger held) {
        return Mono.empty();
    }

    /** Drops these codes from this pod's near cache only, so that the next request for each looks it up below. */
    default void forget(Collection<String> codes) {}

    /** Up to {@code max} codes (of the default domain) whose links the near cache holds now. This default: none. */
    default List<String> held(int max) {
        return List.of();
    }

    /**
     * The answer for a code and the tier it came from: {@link Tier#NEAR} when the near cache held it, otherwise
     * the tier the lookup reached (also for requests that joined a lookup another request had started). The near
     * cache keeps these, and tells later requests the same answer as {@link #near()}; each keeps the redirect it
     * prepares for its link.
     */
    final class Found {

        private final Link link; // null: the code is unknown
        private final Tier tier;
        private final Found near; // this answer as the near cache tells it once loaded: this one when tier is NEAR
        private RedirectAnswer answer; // made on first use (by the near twin); immutable, so a racy set is harmless

        private Found(Link link, Tier tier) {
            this.link = link;
            this.tier = tier;
            this.near = tier == Tier.NEAR ? this : new Found(link, Tier.NEAR);
        }

        static Found of(Link link, Tier tier) {
            return new Found(link, tier);
        }

        Optional<Link> link() {
            return Optional.ofNullable(link);
        }

        public Tier tier() {
            return tier;
        }

        /** The same answer, from the near cache: what requests after the load are told. */
        Found near() {
            return near;
        }

        /**
         * The link's prepared answer, made once per link and shared by this answer and its {@link #near()} twin (a
         * near cache of 100,000 links would otherwise hold 200,000 of them); {@code null} for an unknown code.
         */
        public RedirectAnswer answer(RedirectAnswer.Factory factory) {
            if (near != this) {
                return near.answer(factory);
            }
            RedirectAnswer prepared = answer;
            if (prepared == null && link != null) {
                prepared = factory.of(link);
                answer = prepared;
            }
            return prepared;
        }
    }
}
