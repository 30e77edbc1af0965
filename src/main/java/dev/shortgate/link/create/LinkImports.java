package dev.shortgate.link.create;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.shortgate.codegen.CodegenProperties;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinkChanges;
import dev.shortgate.link.LinkRequests;
import dev.shortgate.link.LinkRules;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.link.store.LinkWrites;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.modulith.NamedInterface;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes links brought in from another shortener, a batch at a time, keeping their codes as aliases and their
 * creation dates. Every URL passes the URL policy first; a refused one writes nothing. One read finds which codes are
 * already held, one multi-row insert writes the free ones, one read confirms them, and the caches are told of the new
 * links together ({@link LinkChanges#importedAll}). A code held by the same URL is left as it is (a re-run changes
 * nothing); a code held by another URL, or a tombstone, is a conflict: skipped, or the link gets a generated code
 * (found again, not made twice, on a re-run).
 */
@Component
@NamedInterface("imports")
public class LinkImports {

    /** What to do when a code is held by another URL. */
    public enum Conflict {
        SKIP,
        NEW_CODE
    }

    /** What became of one link. */
    public enum Status {
        /** Written now (or would be, in a dry run). */
        CREATED,
        /** Already there with this URL: nothing written. */
        UNCHANGED,
        /** Its code is held by another URL (or was deleted): skipped. */
        CONFLICT,
        /** Its code is held by another URL: written under a generated code. */
        NEW_CODE,
        /** Refused (URL policy, an invalid code): nothing written. */
        REFUSED
    }

    /**
     * A link to bring in.
     *
     * @param code         its code in the source, or {@code null} to generate one; on a domain other than the default
     *                     one, its key ({@link DomainCodes#key}), which always names a code: a generated code, or a
     *                     new one for a conflict, is only ever made on the default domain
     * @param url          its target, before the URL policy
     * @param createdAt    when the source made it, or {@code null} for now
     * @param expiresAt    when it stops redirecting, or {@code null} (may be past: the link comes in expired)
     * @param maxVisits    how many visits it allows, or {@code null}
     * @param forwardQuery whether the visitor's query string is appended
     * @param redirectStatus 301, 302, 307 or 308, or {@code null} for the default of the link's domain
     * @param disabled     whether it comes in switched off
     * @param rules        its redirect rules, checked by the caller ({@code rules} module), or {@code null}: stored
     *                     with a link this creates, never onto a link already there
     */
    public record Incoming(
            String code,
            String url,
            Instant createdAt,
            Instant expiresAt,
            Long maxVisits,
            boolean forwardQuery,
            Integer redirectStatus,
            boolean disabled,
            LinkRules rules) {}

    /**
     * One link's outcome, at the index it had in the batch.
     *
     * @param link   the link that holds it now (or would), for {@link Status#CREATED}, {@link Status#UNCHANGED} and
     *               {@link Status#NEW_CODE}; otherwise {@code null}
     * @param reason why it was refused or skipped, or {@code null}
     */
    public record Outcome(int index, Status status, Link link, String reason) {}

    private final LinkRepository links;
    private final LinkWrites writes;
    private final LinkCreator creator;
    private final LinkRequests requests;
    private final LinkChanges changes;
    private final CodegenProperties codegen;

    LinkImports(
            LinkRepository links,
            LinkWrites writes,
            LinkCreator creator,
            LinkRequests requests,
            LinkChanges changes,
            CodegenProperties codegen) {
        this.links = links;
        this.writes = writes;
        this.creator = creator;
        this.requests = requests;
        this.changes = changes;
        this.codegen = codegen;
    }

    /**
     * One outcome per item, in item order. With {@code dryRun} nothing is written and the outcomes say what would
     * happen (a conflict resolved with a new code is reported as {@link Status#NEW_CODE} without a link). A
     * non-problem failure (the database down) fails the whole batch.
     */
    public Mono<List<Outcome>> write(List<Incoming> items, Conflict onConflict, boolean dryRun) {
        return Mono.defer(() -> {
            Outcome[] outcomes = new Outcome[items.size()];
            Map<Integer, Link> aliases = new LinkedHashMap<>();
            Map<Integer, Link> generated = new LinkedHashMap<>();
            Set<String> codes = new HashSet<>();
            Instant now = requests.now();
            for (int i = 0; i < items.size(); i++) {
                Incoming item = items.get(i);
                try {
                    Link link = toLink(item, now);
                    if (link.code() == null) {
                        generated.put(i, link);
                    } else if (!codes.add(link.code())) {
                        outcomes[i] = new Outcome(i, Status.CONFLICT, null, "The code appears twice in the batch.");
                    } else {
                        aliases.put(i, link);
                    }
                } catch (ProblemException e) {
                    outcomes[i] = new Outcome(i, Status.REFUSED, null, e.getMessage());
                }
            }
            return links.findByCodes(codes)
                    .flatMap(held -> {
                        Map<Integer, Link> free = new LinkedHashMap<>();
                        Map<Integer, Link> conflicting = new LinkedHashMap<>();
                        aliases.forEach(
                                (index, link) -> sort(index, link, held.get(link.code()), outcomes, free, conflicting));
                        if (dryRun) {
                            free.keySet().forEach(i -> outcomes[i] = new Outcome(i, Status.CREATED, free.get(i), null));
                            conflicting.forEach((i, link) -> outcomes[i] = conflict(i, onConflict, null));
                            generated.forEach((i, link) -> outcomes[i] = new Outcome(i, Status.CREATED, null, null));
                            return Mono.empty();
                        }
                        return insert(free, outcomes, conflicting)
                                .then(Mono.defer(() -> generate(conflicting, generated, onConflict, outcomes)));
                    })
                    .then(Mono.fromSupplier(() -> List.of(outcomes)));
        });
    }

    private Link toLink(Incoming item, Instant now) {
        String url = requests.url(item.url());
        String code = item.code() == null || item.code().isEmpty() ? null : checkKey(item.code());
        if (item.maxVisits() != null && item.maxVisits() < 1) {
            throw LinkRequests.invalid("maxVisits", "maxVisits must be a positive number.");
        }
        // as a create: a link that names no status gets its domain's default
        int status = item.redirectStatus() == null
                ? requests.defaultRedirectStatus(code == null ? Domains.DEFAULT_ID : DomainCodes.domainId(code))
                : item.redirectStatus();
        LinkRequests.checkStatus(status);
        return new Link(
                code,
                url,
                status,
                code != null,
                item.createdAt() == null ? now : item.createdAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                item.expiresAt() == null ? null : item.expiresAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                item.maxVisits(),
                item.disabled(),
                item.forwardQuery(),
                null,
                null,
                item.rules());
    }

    /** Sorts an alias by who holds its code: nobody (free), the same URL (unchanged) or another (a conflict). */
    private static void sort(
            int index,
            Link link,
            Link holder,
            Outcome[] outcomes,
            Map<Integer, Link> free,
            Map<Integer, Link> conflicting) {
        if (holder == null) {
            free.put(index, link);
        } else if (holder.deletedAt() == null && holder.url().equals(link.url())) {
            outcomes[index] = new Outcome(index, Status.UNCHANGED, holder, null);
        } else {
            conflicting.put(index, link);
        }
    }

    private static Outcome conflict(int index, Conflict onConflict, Link made) {
        return onConflict == Conflict.SKIP
                ? new Outcome(index, Status.CONFLICT, null, "The code is taken by another URL.")
                : new Outcome(index, Status.NEW_CODE, made, "The code is taken by another URL.");
    }

    /**
     * Inserts the free aliases, each with its rules in the transaction of its row ({@link LinkWrites#insertAllWithRules}),
     * and tells the caches of the rows this wrote, rules included.
     */
    private Mono<Void> insert(Map<Integer, Link> free, Outcome[] outcomes, Map<Integer, Link> conflicting) {
        if (free.isEmpty()) {
            return Mono.empty();
        }
        return writes.insertAllWithRules(new ArrayList<>(free.values())).flatMap(held -> {
            List<Link> made = new ArrayList<>();
            free.forEach((index, link) -> {
                Link holder = held.get(link.code());
                if (holder == link) {
                    made.add(link);
                    outcomes[index] = new Outcome(index, Status.CREATED, link, null);
                } else {
                    // Taken between the read and the insert: sorted again against its holder
                    Map<Integer, Link> ignored = new HashMap<>();
                    sort(index, link, holder, outcomes, ignored, conflicting);
                }
            });
            return made.isEmpty() ? Mono.<Void>empty() : changes.importedAll(made);
        });
    }

    /** A key whose code is a valid alias and that fits the link tables' code column. */
    private static String checkKey(String key) {
        LinkRequests.checkAlias(DomainCodes.code(key));
        if (key.length() > DomainCodes.MAX_KEY_LENGTH) {
            throw LinkRequests.invalid("alias", "alias is too long for its domain.");
        }
        return key;
    }

    /** Links without a code, and conflicts resolved with a new code: generated codes, found again on a re-run. */
    private Mono<Void> generate(
            Map<Integer, Link> conflicting, Map<Integer, Link> generated, Conflict onConflict, Outcome[] outcomes) {
        Map<Integer, Link> toMake = new LinkedHashMap<>(generated);
        conflicting.forEach((index, link) -> {
            if (onConflict == Conflict.SKIP || DomainCodes.domainId(link.code()) != Domains.DEFAULT_ID) {
                // a new code is only ever made on the default domain: another domain's taken code is skipped
                outcomes[index] = conflict(index, Conflict.SKIP, null);
            } else {
                toMake.put(index, link);
            }
        });
        int length = codegen.defaultLength();
        return Flux.fromIterable(toMake.entrySet())
                .flatMap(
                        entry -> {
                            int index = entry.getKey();
                            Link link = entry.getValue();
                            Link wanted = new Link(
                                    null,
                                    link.url(),
                                    link.redirectStatus(),
                                    false,
                                    link.createdAt(),
                                    link.expiresAt(),
                                    link.maxVisits(),
                                    link.disabled(),
                                    link.forwardQuery(),
                                    link.apiKeyId(),
                                    null,
                                    // stored with the row it creates, in one transaction, and announced with it
                                    link.rules());
                            boolean renamed = link.code() != null;
                            return creator.createGenerated(wanted, length)
                                    .doOnNext(made -> outcomes[index] = !made.created()
                                            ? new Outcome(index, Status.UNCHANGED, made.link(), null)
                                            : renamed
                                                    ? conflict(index, onConflict, made.link())
                                                    : new Outcome(index, Status.CREATED, made.link(), null))
                                    .onErrorResume(ProblemException.class, e -> {
                                        outcomes[index] = new Outcome(index, Status.REFUSED, null, e.getMessage());
                                        return Mono.empty();
                                    });
                        },
                        8)
                .then();
    }
}
