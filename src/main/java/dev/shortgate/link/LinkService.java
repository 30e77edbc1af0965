package dev.shortgate.link;

import java.util.List;
import java.util.Map;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.create.BatchCreator;
import dev.shortgate.link.create.CreateQueue;
import dev.shortgate.link.create.LinkCreator;
import dev.shortgate.link.edit.LinkAccess;
import dev.shortgate.link.edit.LinkEditor;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.link.store.LinkTags;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.modulith.NamedInterface;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Creates, reads, changes and deletes links, for Shortgate's API and Shlink's alike. Each job lives in a class of
 * its own: checking requests ({@link LinkRequests}), who may see and change what ({@link LinkAccess}), find-or-create
 * ({@link LinkCreator}; concurrent creates grouped by {@link CreateQueue}, batches by {@link BatchCreator}), edits and deletes ({@link LinkEditor}) and the list
 * cursor ({@link LinkCursor}). Every change goes to the database first, then to the caches through
 * {@link LinkChanges}.
 */
@Service
@NamedInterface("service")
public class LinkService {

    static final int MAX_PAGE = 100;

    private final LinkRepository links;
    private final LinkRequests requests;
    private final LinkAccess access;
    private final LinkCreator creator;
    private final BatchCreator batches;
    private final CreateQueue queue;
    private final LinkEditor editor;
    private final Domains domains;
    private final LinkTags tags;

    LinkService(
            LinkRepository links,
            LinkRequests requests,
            LinkAccess access,
            LinkCreator creator,
            BatchCreator batches,
            CreateQueue queue,
            LinkEditor editor,
            Domains domains,
            LinkTags tags) {
        this.domains = domains;
        this.tags = tags;
        this.links = links;
        this.requests = requests;
        this.access = access;
        this.creator = creator;
        this.batches = batches;
        this.queue = queue;
        this.editor = editor;
    }

    /** The result of a create: the link, and whether this call made it (201) or found it (200). */
    public record Created(Link link, boolean created) {}

    /** One page of links and the cursor of the next, if any. */
    public record Page(List<Link> links, String nextCursor) {}

    /** One batch item's outcome: the link made or found, or the problem it answers. */
    public record ItemResult(int index, Created created, ProblemException problem) {

        public static ItemResult of(int index, Created created) {
            return new ItemResult(index, created, null);
        }

        public static ItemResult failed(int index, ProblemException problem) {
            return new ItemResult(index, null, problem);
        }
    }

    /**
     * Finds or creates the link a request asks for. The request's tags are written only when this call makes the
     * link: a link found keeps its own ({@link #tagsOf}), as tags are no part of find-if-exists' "same settings".
     */
    public Mono<Created> create(CreateLinkRequest request, ApiPrincipal caller) {
        return Mono.defer(() -> {
            LinkRequests.Prepared prepared = requests.prepare(request, caller);
            Mono<Created> created = prepared.link().alias() || !prepared.onDefaultDomain()
                    ? creator.create(prepared)
                    : queue.create(prepared);
            return prepared.tags().isEmpty() ? created : created.flatMap(result -> tag(result, prepared.tags()));
        });
    }

    /** Gives a link this create made its tags; a link found is left as it is. */
    private Mono<Created> tag(Created result, List<String> names) {
        return result.created() ? tags.set(result.link().code(), names).thenReturn(result) : Mono.just(result);
    }

    /** The tags of each stored key, by name ({@link LinkTags#of}); a key without tags is not in the map. */
    public Mono<Map<String, List<String>>> tagsOf(List<String> keys) {
        return tags.of(keys);
    }

    /** See {@link BatchCreator#create}. */
    public Flux<ItemResult> createBatch(List<CreateLinkRequest> items, ApiPrincipal caller, int concurrency) {
        return batches.create(items, caller, concurrency);
    }

    /**
     * The key {@code code} on the domain a request names is stored under ({@link DomainCodes}): an absent or empty
     * {@code domain} is the default domain, or the caller's own for a key limited to one domain. A domain the caller
     * may not use is a 403 {@code domain-not-allowed} problem, one that does not exist {@code unknown-domain} or
     * {@code invalid-domain}. What is no code is returned as it is: nothing is stored under it, so it answers 404.
     */
    public String key(String code, String domain, ApiPrincipal caller) {
        return Link.CODE.matcher(code).matches() ? DomainCodes.key(domains.forCaller(domain, caller), code) : code;
    }

    public Mono<Link> get(String code, ApiPrincipal caller) {
        return access.readable(code, caller);
    }

    /** Links newest first, {@code limit} at a time (1 to {@value #MAX_PAGE}); a CREATE key sees only its own. */
    public Mono<Page> list(String cursor, Integer limit, ApiPrincipal caller) {
        return list(cursor, limit, null, caller);
    }

    /**
     * As {@link #list(String, Integer, ApiPrincipal)}, of one domain's links ({@code null}: every domain's). A key
     * limited to one domain sees only its domain's, and gets 403 {@code domain-not-allowed} for another.
     */
    public Mono<Page> list(String cursor, Integer limit, Integer domainId, ApiPrincipal caller) {
        return Mono.defer(() -> {
            Integer domain = domainId;
            if (caller.isDomainLimited()) {
                if (domain == null) {
                    domain = caller.domainId();
                }
                caller.checkDomain(domain, null);
            }
            int size = limit == null ? 50 : limit;
            if (size < 1 || size > MAX_PAGE) {
                throw LinkRequests.invalid("limit", "limit must be between 1 and " + MAX_PAGE + ".");
            }
            LinkCursor after = LinkCursor.decode(cursor);
            Long owner = caller.scope() == ApiScope.CREATE ? caller.keyId() : null;
            if (caller.scope() == ApiScope.CREATE && owner == null) {
                return Mono.just(new Page(List.of(), null));
            }
            return links.page(owner, domain, after.createdAt(), after.code(), size + 1)
                    .collectList()
                    .map(page -> page.size() <= size
                            ? new Page(page, null)
                            : new Page(
                                    page.subList(0, size),
                                    LinkCursor.after(page.get(size - 1)).encode()));
        });
    }

    /**
     * Applies a patch ({@link LinkEditor#update}); its {@code tags}, when it names them, then replace the link's own
     * ({@link LinkTags#set}). A patch of tags alone writes no link row, so the caches keep the link; one that names
     * nothing changes nothing. As on create, the tags are written after the link row, not in its transaction.
     */
    public Mono<Link> update(String code, LinkPatch patch, ApiPrincipal caller) {
        Mono<Link> changed = patch.changesLink() ? editor.update(code, patch, caller) : access.changeable(code, caller);
        return patch.has("tags")
                ? changed.flatMap(link -> tags.set(link.code(), patch.tags()).thenReturn(link))
                : changed;
    }

    /**
     * Replaces a link's redirect rules, which the caller has checked ({@code rules} module); {@code null} or empty
     * removes them. See {@link LinkEditor#setRules}.
     */
    public Mono<Link> setRules(String code, LinkRules rules, ApiPrincipal caller) {
        return editor.setRules(code, rules, caller);
    }

    /**
     * Deletes a link, keeping a tombstone so its code is never given to another URL, then forgets its tags
     * ({@link LinkTags#forget}); the tags themselves stay, as in Shlink.
     */
    public Mono<Void> delete(String code, ApiPrincipal caller) {
        return Mono.defer(() -> editor.delete(code, caller)).then(Mono.defer(() -> tags.forget(code)));
    }
}
