package dev.shortgate.link;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.shortgate.link.LinkRequests.Prepared;
import dev.shortgate.link.LinkService.Created;
import dev.shortgate.link.LinkService.ItemResult;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.system.Problem;
import dev.shortgate.system.ProblemException;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Creates a batch, behaving as a create per item (find-if-exists and per-item problems alike) but with one round
 * trip per step for all generated items together: one query for the links their URLs already have, one multi-row
 * insert of a first candidate each, one query to see which rows went in. Only the items whose candidate was taken
 * (a collision, a concurrent create of the same link) and aliases go through {@link LinkCreator} one by one.
 */
@Component
class BatchCreator {

    /** Generated items of a batch written by one statement; a few such chunks run at once. */
    static final int CHUNK = 200;

    static final int CHUNKS_AT_ONCE = 3;

    private final LinkRepository links;
    private final LinkRequests requests;
    private final LinkCreator creator;

    BatchCreator(LinkRepository links, LinkRequests requests, LinkCreator creator) {
        this.links = links;
        this.requests = requests;
        this.creator = creator;
    }

    /**
     * Results come as items finish, in no particular order; a non-problem failure (the database down) fails it.
     *
     * @param concurrency how many single creates (aliases, conflicting items) run at once
     */
    Flux<ItemResult> create(List<CreateLinkRequest> items, ApiPrincipal caller, int concurrency) {
        return Flux.defer(() -> {
            List<ItemResult> refused = new ArrayList<>();
            List<Map<Integer, Prepared>> chunks = new ArrayList<>();
            Map<Integer, Prepared> single = new LinkedHashMap<>();
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i) == null) {
                    refused.add(ItemResult.failed(i, Problem.INVALID_REQUEST.toException("Item is null.")));
                    continue;
                }
                try {
                    Prepared prepared = requests.prepare(items.get(i), caller);
                    if (prepared.link().alias()) {
                        single.put(i, prepared);
                        continue;
                    }
                    if (chunks.isEmpty() || chunks.get(chunks.size() - 1).size() >= CHUNK) {
                        chunks.add(new LinkedHashMap<>());
                    }
                    chunks.get(chunks.size() - 1).put(i, prepared);
                } catch (ProblemException e) {
                    refused.add(ItemResult.failed(i, e));
                }
            }
            Flux<ItemResult> singles = Flux.fromIterable(single.entrySet())
                    .flatMap(item -> one(item.getKey(), creator.create(item.getValue())), concurrency);
            Flux<ItemResult> together =
                    Flux.fromIterable(chunks).flatMap(chunk -> createTogether(chunk, concurrency), CHUNKS_AT_ONCE);
            return Flux.concat(Flux.fromIterable(refused), Flux.merge(together, singles));
        });
    }

    private Flux<ItemResult> createTogether(Map<Integer, Prepared> wanted, int concurrency) {
        Set<String> urls = new HashSet<>();
        wanted.values().forEach(prepared -> urls.add(prepared.link().url()));
        return links.findGenerated(urls).collectList().flatMapMany(existing -> {
            Map<String, List<Link>> byUrl = new HashMap<>();
            existing.forEach(link ->
                    byUrl.computeIfAbsent(link.url(), url -> new ArrayList<>()).add(link));
            List<ItemResult> found = new ArrayList<>();
            Map<Integer, Prepared> toMake = new LinkedHashMap<>();
            List<Integer> again = new ArrayList<>(); // the same link as an earlier item: found once that one is made
            Set<List<Object>> seen = new HashSet<>();
            wanted.forEach((index, prepared) -> {
                Link match = byUrl.getOrDefault(prepared.link().url(), List.of()).stream()
                        .filter(link -> link.code().length() == prepared.length() && link.satisfies(prepared.link()))
                        .findFirst()
                        .orElse(null);
                if (match != null) {
                    found.add(ItemResult.of(index, new Created(match, false)));
                } else if (!seen.add(sameness(prepared))) {
                    again.add(index);
                } else {
                    toMake.put(index, prepared);
                }
            });
            Flux<ItemResult> made = toMake.isEmpty() ? Flux.empty() : makeTogether(toMake, concurrency);
            return Flux.concat(Flux.fromIterable(found), made, oneByOne(again, wanted, concurrency));
        });
    }

    /** What makes two items of a batch the same create: find-if-exists would give the second the first's link. */
    private static List<Object> sameness(Prepared prepared) {
        Link link = prepared.link();
        return Arrays.asList(
                link.url(),
                prepared.length(),
                link.redirectStatus(),
                link.expiresAt(),
                link.maxVisits(),
                link.disabled(),
                link.forwardQuery(),
                link.apiKeyId());
    }

    private Flux<ItemResult> makeTogether(Map<Integer, Prepared> toMake, int concurrency) {
        List<Integer> indexes = new ArrayList<>(toMake.keySet());
        return creator.allocator()
                .flatMap(codes -> Flux.fromIterable(indexes)
                        .flatMapSequential(
                                index -> {
                                    Prepared prepared = toMake.get(index);
                                    return codes.firstCandidate(prepared.link().url(), prepared.length())
                                            .map(code -> LinkCreator.withCode(prepared.link(), code));
                                },
                                64)
                        .collectList())
                .flatMapMany(candidates -> links.insertAll(candidates)
                        .then(links.findByCodes(
                                candidates.stream().map(Link::code).toList()))
                        .flatMapMany(held -> {
                            List<ItemResult> ours = new ArrayList<>();
                            List<Integer> conflicting = new ArrayList<>();
                            for (int n = 0; n < candidates.size(); n++) {
                                Link candidate = candidates.get(n);
                                if (candidate.equals(held.get(candidate.code()))) { // this very row: ours
                                    ours.add(ItemResult.of(indexes.get(n), new Created(candidate, true)));
                                } else {
                                    conflicting.add(indexes.get(n));
                                }
                            }
                            Flux<ItemResult> announced = Flux.fromIterable(ours)
                                    .flatMap(
                                            result -> creator.announce(result.created())
                                                    .thenReturn(result),
                                            256);
                            return Flux.merge(announced, oneByOne(conflicting, toMake, concurrency));
                        }));
    }

    private Flux<ItemResult> oneByOne(List<Integer> indexes, Map<Integer, Prepared> items, int concurrency) {
        return Flux.fromIterable(indexes)
                .flatMap(
                        index -> {
                            Prepared prepared = items.get(index);
                            return one(index, creator.createGenerated(prepared.link(), prepared.length()));
                        },
                        concurrency);
    }

    private static Mono<ItemResult> one(int index, Mono<Created> create) {
        return create.map(created -> ItemResult.of(index, created))
                .onErrorResume(ProblemException.class, e -> Mono.just(ItemResult.failed(index, e)));
    }
}
