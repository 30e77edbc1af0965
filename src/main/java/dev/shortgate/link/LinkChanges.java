package dev.shortgate.link;

import java.util.List;

import org.springframework.modulith.NamedInterface;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * How the write side tells the read path that a link changed, without depending on it. The redirect feature
 * implements this: it writes the link through to its caches and tells other pods to drop what they hold.
 * Implementations must not fail the write: the database is the source of truth and is already written.
 */
@NamedInterface("changes")
public interface LinkChanges {

    /** A link was created; caches may hold a negative entry for its code. */
    Mono<Void> created(Link link);

    /** Links were created together (a group of creates, a batch); as {@link #created} for each. */
    default Mono<Void> createdAll(List<Link> links) {
        return Flux.fromIterable(links).flatMap(this::created).then();
    }

    /**
     * Links brought in by an import. Their codes were free (no row, not even a tombstone), so no cache holds them; the
     * caches must only learn that they exist now: the unknown-code guard, and every pod's negative entries. Unlike
     * {@link #createdAll}, nothing is filled with them: a million imported links would push the links being visited
     * out of the caches, and a lookup fills them on demand.
     */
    default Mono<Void> importedAll(List<Link> links) {
        return createdAll(links);
    }

    /**
     * A link was changed or deleted (then {@link Link#deletedAt()} is set); every cached copy of its code must be
     * replaced or dropped.
     */
    Mono<Void> changed(Link link);
}
