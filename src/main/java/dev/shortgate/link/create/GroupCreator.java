package dev.shortgate.link.create;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.shortgate.codegen.CodeAllocator;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRequests.Prepared;
import dev.shortgate.link.LinkService.Created;
import dev.shortgate.link.LinkService.ItemResult;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.link.store.LinkWrites;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Creates a group of generated links, behaving as a create per item (find-if-exists and per-item problems alike) but
 * with one round trip per step for the whole group: one query for the links their URLs already have, one multi-row
 * insert of a first candidate each, one query to see which rows went in. Only the items whose candidate was taken
 * (a collision, a concurrent create of the same link) go through {@link LinkCreator} one by one. Batches
 * ({@link BatchCreator}) and concurrent single creates ({@link CreateQueue}) are written this way.
 */
@Component
class GroupCreator {

    private final LinkRepository links;
    private final LinkWrites writes;
    private final LinkCreator creator;

    GroupCreator(LinkRepository links, LinkWrites writes, LinkCreator creator) {
        this.links = links;
        this.writes = writes;
        this.creator = creator;
    }

    /**
     * One result per item, as items finish, in no particular order; a non-problem failure (the database down) fails
     * the whole group.
     *
     * @param wanted      generated items (no aliases) by their index
     * @param concurrency how many items whose candidate was taken go through single creates at once
     */
    Flux<ItemResult> create(Map<Integer, Prepared> wanted, int concurrency) {
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
                        .filter(link -> LinkCreator.fits(link, prepared.length(), prepared.domainId())
                                && link.satisfies(prepared.link()))
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

    /** What makes two items the same create: find-if-exists would give the second the first's link. */
    static List<Object> sameness(Prepared prepared) {
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

    /**
     * Makes items no link matched: a first candidate code for each, all inserted by one statement
     * ({@link #insertAndCheck}); an item without a first candidate is made one by one.
     */
    private Flux<ItemResult> makeTogether(Map<Integer, Prepared> toMake, int concurrency) {
        List<Integer> indexes = new ArrayList<>(toMake.keySet());
        return creator.allocator()
                .flatMap(codes -> firstCandidates(codes, byLength(indexes, toMake), toMake))
                .map(byIndex -> indexes.stream().map(byIndex::get).toList())
                .flatMapMany(firsts -> insertFirsts(firsts, indexes, toMake, concurrency));
    }

    /** The indexes of the items, by the length of the code each asks for, in their order. */
    private static Map<Integer, List<Integer>> byLength(List<Integer> indexes, Map<Integer, Prepared> toMake) {
        Map<Integer, List<Integer>> byLength = new LinkedHashMap<>();
        indexes.forEach(index -> byLength.computeIfAbsent(toMake.get(index).length(), length -> new ArrayList<>())
                .add(index));
        return byLength;
    }

    /**
     * Each item's first candidate link, by index: one ask of the strategy per code length (the pool's: one SPOP for
     * them all). A length whose ask fails leaves its items without a candidate.
     */
    private static Mono<Map<Integer, Optional<Link>>> firstCandidates(
            CodeAllocator codes, Map<Integer, List<Integer>> byLength, Map<Integer, Prepared> toMake) {
        return Flux.fromIterable(byLength.entrySet())
                .concatMap(sameLength ->
                        firstCandidatesOfLength(codes, sameLength.getKey(), sameLength.getValue(), toMake))
                .collectList()
                .map(maps -> {
                    Map<Integer, Optional<Link>> all = new HashMap<>();
                    maps.forEach(all::putAll);
                    return all;
                });
    }

    /** The first candidate link of each item asking for a code of {@code length}, by index. */
    private static Mono<Map<Integer, Optional<Link>>> firstCandidatesOfLength(
            CodeAllocator codes, int length, List<Integer> sameLength, Map<Integer, Prepared> toMake) {
        List<String> urls =
                sameLength.stream().map(index -> toMake.get(index).link().url()).toList();
        return codes.firstCandidates(urls, length)
                .onErrorResume(e -> Mono.just(sameLength.stream()
                        .map(index -> Optional.<String>empty())
                        .toList()))
                .map(firsts -> {
                    Map<Integer, Optional<Link>> byIndex = new HashMap<>();
                    for (int n = 0; n < firsts.size(); n++) {
                        Prepared prepared = toMake.get(sameLength.get(n));
                        byIndex.put(sameLength.get(n), firsts.get(n).map(code -> prepared.link()
                                .withCode(code)));
                    }
                    return byIndex;
                });
    }

    /**
     * Inserts the items that have a first candidate together; those without one (their strategy failed them) are
     * made one by one, which answers as a single create would.
     */
    private Flux<ItemResult> insertFirsts(
            List<Optional<Link>> firsts, List<Integer> indexes, Map<Integer, Prepared> toMake, int concurrency) {
        List<Link> candidates = new ArrayList<>();
        List<Integer> candidateIndexes = new ArrayList<>();
        List<Integer> without = new ArrayList<>();
        for (int n = 0; n < firsts.size(); n++) {
            if (firsts.get(n).isPresent()) {
                candidates.add(firsts.get(n).get());
                candidateIndexes.add(indexes.get(n));
            } else {
                without.add(indexes.get(n));
            }
        }
        return Flux.merge(
                insertAndCheck(candidates, candidateIndexes, toMake, concurrency),
                oneByOne(without, toMake, concurrency));
    }

    private Flux<ItemResult> insertAndCheck(
            List<Link> candidates, List<Integer> indexes, Map<Integer, Prepared> toMake, int concurrency) {
        if (candidates.isEmpty()) {
            return Flux.empty();
        }
        return writes.insertAll(candidates)
                .flatMap(inserted -> links.findByCodes(
                                candidates.stream().map(Link::code).toList())
                        .map(held -> new Inserted(inserted, held)))
                .flatMapMany(insert -> {
                    List<Integer> same = new ArrayList<>(); // the row holding the code is exactly the candidate
                    List<Integer> conflicting = new ArrayList<>();
                    for (int n = 0; n < candidates.size(); n++) {
                        Link candidate = candidates.get(n);
                        (candidate.equals(insert.held().get(candidate.code())) ? same : conflicting).add(n);
                    }
                    // Another pod may have written an identical row in the same millisecond (the same link of the
                    // same URL): a row is surely ours only when this statement inserted as many rows as match.
                    // Otherwise the matching items are answered by single creates, which find the rows (200).
                    if (same.size() != insert.rows()) {
                        conflicting.addAll(same);
                        same.clear();
                    }
                    List<ItemResult> ours = new ArrayList<>();
                    for (int n : same) {
                        ours.add(ItemResult.of(indexes.get(n), new Created(candidates.get(n), true)));
                    }
                    conflicting.replaceAll(indexes::get);
                    Flux<ItemResult> announced = creator.announceAll(ours.stream()
                                    .map(result -> result.created().link())
                                    .toList())
                            .thenMany(Flux.fromIterable(ours));
                    return Flux.merge(announced, oneByOne(conflicting, toMake, concurrency));
                });
    }

    /** How many rows a multi-row insert wrote, and the rows that hold its codes afterwards. */
    private record Inserted(long rows, Map<String, Link> held) {}

    private Flux<ItemResult> oneByOne(List<Integer> indexes, Map<Integer, Prepared> items, int concurrency) {
        return Flux.fromIterable(indexes)
                .flatMap(
                        index -> {
                            Prepared prepared = items.get(index);
                            return one(
                                    index,
                                    creator.createGenerated(prepared.link(), prepared.length(), prepared.domainId()));
                        },
                        concurrency);
    }

    static Mono<ItemResult> one(int index, Mono<Created> create) {
        return create.map(created -> ItemResult.of(index, created))
                .onErrorResume(ProblemException.class, e -> Mono.just(ItemResult.failed(index, e)));
    }
}
