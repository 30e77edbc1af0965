package dev.shortgate.link.edit;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkChanges;
import dev.shortgate.link.LinkPatch;
import dev.shortgate.link.LinkRequests;
import dev.shortgate.link.LinkRules;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.link.store.LinkWrites;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.database.ConflictRetry;
import dev.shortgate.system.problem.Problem;
import org.springframework.stereotype.Component;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/** Changes and deletes links: the database first, then the caches through {@link LinkChanges}. */
@Component
public class LinkEditor {

    static final int PATCH_ATTEMPTS = 8;

    private final LinkRepository links;
    private final LinkWrites writes;
    private final LinkAccess access;
    private final LinkRequests requests;
    private final LinkChanges changes;
    private final Clock clock;
    private final ConflictRetry conflicts;

    LinkEditor(
            LinkRepository links,
            LinkWrites writes,
            LinkAccess access,
            LinkRequests requests,
            LinkChanges changes,
            Clock clock,
            ConflictRetry conflicts) {
        this.conflicts = conflicts;
        this.links = links;
        this.writes = writes;
        this.access = access;
        this.requests = requests;
        this.changes = changes;
        this.clock = clock;
    }

    /**
     * Applies a JSON merge patch (RFC 7386) to a link's editable fields. The write is conditional on the version
     * read, so two concurrent patches never undo each other's fields: the one that loses the race re-reads the
     * link and applies its patch to the new state, up to {@link #PATCH_ATTEMPTS} times. A write that lost a write
     * conflict at COMMIT (Galera: the same link patched on another node at once) is a lost race too, tried again as a
     * whole from its read ({@link ConflictRetry}).
     */
    public Mono<Link> update(String code, LinkPatch patch, ApiPrincipal caller) {
        return conflicts
                .transaction("patch", Mono.defer(() -> access.changeableVersioned(code, caller)
                        .flatMap(current -> apply(current, patch))))
                .retryWhen(Retry.max(PATCH_ATTEMPTS - 1).filter(LostRace.class::isInstance))
                .onErrorMap(
                        Exceptions::isRetryExhausted,
                        e -> Problem.LINK_CHANGED_CONCURRENTLY.toException(
                                "The link kept changing while this change was applied; try again."));
    }

    private Mono<Link> apply(LinkRepository.Versioned versioned, LinkPatch patch) {
        Link current = versioned.link();
        String url = current.url();
        if (patch.has("url")) {
            if (patch.url() == null) {
                throw LinkRequests.invalid("url", "url must be a string.");
            }
            url = requests.url(patch.url());
        }
        Instant expiresAt = current.expiresAt();
        if (patch.has("expiresAt")) {
            expiresAt = patch.expiresAt() == null ? null : patch.expiresAt().truncatedTo(ChronoUnit.MILLIS);
        }
        Long maxVisits = current.maxVisits();
        if (patch.has("maxVisits")) {
            if (patch.maxVisits() != null && patch.maxVisits() < 1) {
                throw LinkRequests.invalid(
                        "maxVisits", "maxVisits must be a positive whole number, or null to remove the limit.");
            }
            maxVisits = patch.maxVisits();
        }
        boolean disabled = patch.has("disabled") ? bool(patch.disabled(), "disabled") : current.disabled();
        boolean forwardQuery =
                patch.has("forwardQuery") ? bool(patch.forwardQuery(), "forwardQuery") : current.forwardQuery();
        int status = current.redirectStatus();
        if (patch.has("redirectStatus")) {
            if (patch.redirectStatus() == null) {
                throw LinkRequests.invalid("redirectStatus", "redirectStatus must be 301, 302, 307 or 308.");
            }
            status = patch.redirectStatus();
            LinkRequests.checkStatus(status);
        }
        Link changed = new Link(
                current.code(),
                url,
                status,
                current.alias(),
                current.createdAt(),
                expiresAt,
                maxVisits,
                disabled,
                forwardQuery,
                current.apiKeyId(),
                null,
                current.rules());
        return writes.update(changed, versioned.version(), clock.instant())
                .flatMap(
                        updated -> updated ? changes.changed(changed).thenReturn(changed) : Mono.error(new LostRace()));
    }

    /**
     * Replaces a link's redirect rules ({@code null} or empty: removes them), already checked by the caller, then
     * tells the caches. Conditional on the version read, and tried again after a write conflict, as {@link #update}
     * is.
     */
    public Mono<Link> setRules(String code, LinkRules rules, ApiPrincipal caller) {
        return conflicts
                .transaction("rules", Mono.defer(() -> access.changeableVersioned(code, caller)
                        .flatMap(current -> {
                            Link changed = current.link().withRules(rules);
                            return writes.setRules(code, rules, current.version(), clock.instant())
                                    .flatMap(updated -> updated
                                            ? changes.changed(changed).thenReturn(changed)
                                            : Mono.error(new LostRace()));
                        })))
                .retryWhen(Retry.max(PATCH_ATTEMPTS - 1).filter(LostRace.class::isInstance))
                .onErrorMap(
                        Exceptions::isRetryExhausted,
                        e -> Problem.LINK_CHANGED_CONCURRENTLY.toException(
                                "The link kept changing while its rules were set; try again."));
    }

    /** Deletes a link, keeping a tombstone so its code is never given to another URL. */
    public Mono<Void> delete(String code, ApiPrincipal caller) {
        Instant now = requests.now();
        return access.changeable(code, caller).flatMap(link -> conflicts
                .transaction("delete", writes.markDeleted(code, now))
                .flatMap(deleted -> deleted
                        ? changes.changed(link.tombstone(now))
                        : Mono.<Void>error(LinkAccess.notFoundProblem(code))));
    }

    private static boolean bool(Boolean value, String field) {
        if (value == null) {
            throw LinkRequests.invalid(field, field + " must be true or false.");
        }
        return value;
    }

    /** Another write got to the link between this patch's read and its write. */
    private static final class LostRace extends RuntimeException {
        LostRace() {
            super("link changed since it was read", null, false, false);
        }
    }
}
