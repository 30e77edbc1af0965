package dev.shortgate.link.create;

import java.time.Duration;
import java.util.List;

import dev.shortgate.codegen.CodeAllocator;
import dev.shortgate.codegen.CodeSpaceExhaustedException;
import dev.shortgate.codegen.CodeStrategies;
import dev.shortgate.codegen.CodegenProperties;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinkChanges;
import dev.shortgate.link.LinkRequests;
import dev.shortgate.link.LinkService.Created;
import dev.shortgate.link.LinksCreated;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.link.store.LinkWrites;
import dev.shortgate.system.database.ConflictRetry;
import dev.shortgate.system.problem.Problem;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Find-or-create of one link: reuse the code this URL already has with the same settings, or claim the first free
 * candidate; the primary key decides every race. A link made is announced to the caches through {@link LinkChanges},
 * then to whoever listens as {@link LinksCreated}.
 */
@Component
public class LinkCreator {

    private final LinkRepository links;
    private final LinkWrites writes;
    private final LinkChanges changes;
    private final ApplicationEventPublisher events;
    private final Counter createdGenerated;
    private final Counter createdAlias;
    private final Counter collisions;
    private final Mono<CodeAllocator> allocator;
    private final ConflictRetry conflicts;

    LinkCreator(
            LinkRepository links,
            LinkWrites writes,
            CodegenSecret secret,
            CodegenProperties codegen,
            CodeStrategies strategies,
            LinkChanges changes,
            ConflictRetry conflicts,
            ApplicationEventPublisher events,
            MeterRegistry registry) {
        this.links = links;
        this.conflicts = conflicts;
        this.writes = writes;
        this.changes = changes;
        this.events = events;
        this.createdGenerated = Counter.builder("shortgate.links.creations")
                .tag("kind", "generated")
                .description("Links created")
                .register(registry);
        this.createdAlias = Counter.builder("shortgate.links.creations")
                .tag("kind", "alias")
                .description("Links created")
                .register(registry);
        this.collisions = Counter.builder("shortgate.codegen.collisions")
                .description("Candidate codes that were already taken by another URL")
                .register(registry);
        // Made once, when the secret is first read (kept for good; a failed read is tried again by the next create)
        this.allocator = secret.get()
                .map(key -> new CodeAllocator(strategies.forKey(key), codegen.maxRounds()))
                .cache(made -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ZERO, () -> Duration.ZERO);
    }

    /** The code allocator, once the codegen secret has been read. */
    Mono<CodeAllocator> allocator() {
        return allocator;
    }

    public Mono<Created> create(LinkRequests.Prepared prepared) {
        return prepared.link().alias()
                ? createAlias(prepared.link())
                : createGenerated(prepared.link(), prepared.length(), prepared.domainId());
    }

    /**
     * Find-if-exists and insert, as one unit that is run again when it lost a write conflict (on Galera, a create of
     * the same link on another node at the same moment): the next run finds the winner's row. Announced once, after.
     */
    Mono<Created> createGenerated(Link wanted, int length) {
        return createGenerated(wanted, length, Domains.DEFAULT_ID);
    }

    /** As {@link #createGenerated(Link, int)}, on the domain with this id ({@link DomainCodes}). */
    Mono<Created> createGenerated(Link wanted, int length, int domainId) {
        return conflicts
                .transaction("create", Mono.defer(() -> findOrClaim(wanted, length, domainId)))
                .flatMap(this::announce);
    }

    /** Whether {@code link} is a code of this length on this domain. */
    static boolean fits(Link link, int length, int domainId) {
        return DomainCodes.domainId(link.code()) == domainId
                && DomainCodes.code(link.code()).length() == length;
    }

    private Mono<Created> findOrClaim(Link wanted, int length, int domainId) {
        Mono<Created> existing = links.findGenerated(wanted.url())
                .filter(link -> fits(link, length, domainId) && link.satisfies(wanted))
                .next()
                .map(link -> new Created(link, false));
        return existing.switchIfEmpty(Mono.defer(() -> allocator.flatMap(codes -> codes.allocate(
                        wanted.url(), length, code -> claim(DomainCodes.key(domainId, code), wanted), existing))))
                .onErrorMap(CodeSpaceExhaustedException.class, e -> Problem.CODE_SPACE_EXHAUSTED
                        .toException("No free code of length " + length + " was found after " + e.rounds()
                                + " rounds; try a longer length.")
                        .with("length", length));
    }

    /**
     * Takes {@code code} for the wanted link, or finds that it, or a concurrent create of the same link under another
     * code, already holds it; empty when another link holds the code.
     */
    private Mono<Created> claim(String code, Link wanted) {
        Link candidate = wanted.withCode(code);
        return writes.insert(candidate)
                .flatMap(inserted -> inserted
                        ? Mono.just(new Created(candidate, true))
                        : links.findByCode(code)
                                .filter(holder -> holder.satisfies(candidate))
                                .switchIfEmpty(Mono.defer(() -> links.findByCreateKey(
                                        candidate, DomainCodes.code(code).length())))
                                .filter(holder -> holder.satisfies(candidate))
                                .map(holder -> new Created(holder, false))
                                .switchIfEmpty(Mono.fromRunnable(collisions::increment)));
    }

    private Mono<Created> createAlias(Link candidate) {
        return conflicts
                .transaction("create", Mono.defer(() -> claimAlias(candidate)))
                .flatMap(this::announce);
    }

    private Mono<Created> claimAlias(Link candidate) {
        return writes.insert(candidate)
                .flatMap(inserted -> inserted
                        ? Mono.just(new Created(candidate, true))
                        : links.findByCode(candidate.code())
                                .filter(holder -> holder.satisfies(candidate))
                                .map(holder -> new Created(holder, false))
                                .switchIfEmpty(Mono.error(() -> Problem.ALIAS_TAKEN
                                        .toException("The alias '" + candidate.code() + "' is already taken.")
                                        .with("field", "alias"))));
    }

    /** Counts a link made and tells the caches; a link found is passed on as it is. */
    Mono<Created> announce(Created created) {
        if (!created.created()) {
            return Mono.just(created);
        }
        (created.link().alias() ? createdAlias : createdGenerated).increment();
        return changes.created(created.link())
                .then(Mono.fromRunnable(() -> events.publishEvent(new LinksCreated(List.of(created.link())))))
                .thenReturn(created);
    }

    /** Counts links made together and tells the caches of them all at once. */
    Mono<Void> announceAll(List<Link> made) {
        if (made.isEmpty()) {
            return Mono.empty();
        }
        createdGenerated.increment(made.size());
        return changes.createdAll(made)
                .then(Mono.fromRunnable(() -> events.publishEvent(new LinksCreated(List.copyOf(made)))));
    }
}
