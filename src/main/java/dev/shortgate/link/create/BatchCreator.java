package dev.shortgate.link.create;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.link.CreateLinkRequest;
import dev.shortgate.link.LinkRequests;
import dev.shortgate.link.LinkRequests.Prepared;
import dev.shortgate.link.LinkService.ItemResult;
import dev.shortgate.link.store.LinkTags;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Creates a batch, behaving as a create per item (find-if-exists and per-item problems alike): its generated items
 * are written in chunks by {@link GroupCreator}, with one round trip per step for a whole chunk, and its aliases go
 * through {@link LinkCreator} one by one. Of two items that are the same create, the earlier one makes the link and
 * the later one finds it, as if they had come one after the other. An item's tags are written once the batch has
 * made its link.
 */
@Component
public class BatchCreator {

    /** Generated items of a batch written by one statement; a few such chunks run at once. */
    static final int CHUNK = 200;

    static final int CHUNKS_AT_ONCE = 3;

    private final LinkRequests requests;
    private final LinkCreator creator;
    private final GroupCreator groups;
    private final LinkTags tags;

    BatchCreator(LinkRequests requests, LinkCreator creator, GroupCreator groups, LinkTags tags) {
        this.requests = requests;
        this.creator = creator;
        this.groups = groups;
        this.tags = tags;
    }

    /**
     * Results come as items finish, in no particular order; a non-problem failure (the database down) fails it.
     *
     * @param concurrency how many single creates (aliases, conflicting items) run at once
     */
    public Flux<ItemResult> create(List<CreateLinkRequest> items, ApiPrincipal caller, int concurrency) {
        return Flux.defer(() -> {
            List<ItemResult> refused = new ArrayList<>();
            List<Map<Integer, Prepared>> chunks = new ArrayList<>();
            Map<Integer, Prepared> single = new LinkedHashMap<>();
            Map<Integer, List<String>> tagsOf = new HashMap<>();
            Map<List<Object>, Map<Integer, Prepared>> chunkOf = new HashMap<>();
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i) == null) {
                    refused.add(ItemResult.failed(i, Problem.INVALID_REQUEST.toException("Item is null.")));
                    continue;
                }
                try {
                    Prepared prepared = requests.prepare(items.get(i), caller);
                    if (!prepared.tags().isEmpty()) {
                        tagsOf.put(i, prepared.tags());
                    }
                    if (prepared.link().alias() || !prepared.onDefaultDomain()) {
                        single.put(i, prepared);
                        continue;
                    }
                    // the same create as an earlier item goes in that item's chunk, after it: the earlier one makes
                    // the link (201) and this one finds it (200), not whichever chunk happens to write first
                    List<Object> sameness = GroupCreator.sameness(prepared);
                    Map<Integer, Prepared> earlier = chunkOf.get(sameness);
                    if (earlier != null) {
                        earlier.put(i, prepared);
                        continue;
                    }
                    if (chunks.isEmpty() || chunks.get(chunks.size() - 1).size() >= CHUNK) {
                        chunks.add(new LinkedHashMap<>());
                    }
                    Map<Integer, Prepared> chunk = chunks.get(chunks.size() - 1);
                    chunk.put(i, prepared);
                    chunkOf.put(sameness, chunk);
                } catch (ProblemException e) {
                    refused.add(ItemResult.failed(i, e));
                }
            }
            Flux<ItemResult> singles = Flux.fromIterable(single.entrySet())
                    .flatMap(item -> GroupCreator.one(item.getKey(), creator.create(item.getValue())), concurrency);
            Flux<ItemResult> together =
                    Flux.fromIterable(chunks).flatMap(chunk -> groups.create(chunk, concurrency), CHUNKS_AT_ONCE);
            return Flux.concat(
                    Flux.fromIterable(refused),
                    Flux.merge(together, singles).flatMap(result -> tag(result, tagsOf), concurrency));
        });
    }

    /** Gives an item's link its tags when the batch made it, as a single create does; a link found keeps its own. */
    private Mono<ItemResult> tag(ItemResult result, Map<Integer, List<String>> tagsOf) {
        List<String> names = tagsOf.get(result.index());
        return names == null || result.created() == null || !result.created().created()
                ? Mono.just(result)
                : tags.set(result.created().link().code(), names).thenReturn(result);
    }
}
