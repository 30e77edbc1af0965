package dev.shortgate.link;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.shortgate.codegen.CodeAllocator;
import dev.shortgate.codegen.CodeGenerator;
import dev.shortgate.codegen.CodeSpaceExhaustedException;
import dev.shortgate.codegen.CodeStrategies;
import dev.shortgate.codegen.CodegenProperties;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.security.UrlPolicy;
import dev.shortgate.system.Problem;
import dev.shortgate.system.ProblemException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Service;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Creates, reads, changes and deletes links. Creating is: check and normalise the URL, reuse the code this URL
 * already has with the same settings, or claim the first free candidate; the primary key decides every race.
 * Every change goes to the database first, then to the caches through {@link LinkChanges}.
 */
@Service
public class LinkService {

    /** Codes and aliases share one syntax. */
    static final Pattern ALIAS = Link.CODE;

    /** First path segments that must stay free for the service itself (compared case-insensitively). */
    static final Set<String> RESERVED = Set.of("api", "actuator", "favicon.ico", "robots.txt", "health", "metrics",
            "prometheus", "static", "assets", "admin", "login", "logout", "well-known", ".well-known", "sitemap.xml",
            "index.html", "error", "rest");

    static final Set<Integer> REDIRECT_STATUSES = Set.of(301, 302, 307, 308);
    static final int MAX_PAGE = 100;
    static final int PATCH_ATTEMPTS = 8;
    /** Generated items of a batch written by one statement; a few such chunks run at once. */
    static final int BATCH_CHUNK = 200;
    static final int BATCH_CHUNKS_AT_ONCE = 3;

    private final LinkRepository links;
    private final UrlPolicy urlPolicy;
    private final CodegenProperties codegen;
    private final LinkChanges changes;
    private final Clock clock;
    private final Counter createdGenerated;
    private final Counter createdAlias;
    private final Counter collisions;
    private final Mono<CodeAllocator> allocator;

    LinkService(LinkRepository links, UrlPolicy urlPolicy, CodegenSecret secret, CodegenProperties codegen,
                CodeStrategies strategies, LinkChanges changes, Clock clock, MeterRegistry registry) {
        this.links = links;
        this.urlPolicy = urlPolicy;
        this.codegen = codegen;
        this.changes = changes;
        this.clock = clock;
        this.createdGenerated = Counter.builder("shortgate.links.creations").tag("kind", "generated")
                .description("Links created").register(registry);
        this.createdAlias = Counter.builder("shortgate.links.creations").tag("kind", "alias")
                .description("Links created").register(registry);
        this.collisions = Counter.builder("shortgate.codegen.collisions")
                .description("Candidate codes that were already taken by another URL").register(registry);
        // Made once, when the secret is first read (kept for good; a failed read is tried again by the next create)
        this.allocator = secret.get().map(key -> new CodeAllocator(strategies.forKey(key), codegen.maxRounds()))
                .cache(made -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ZERO, () -> Duration.ZERO);
    }

    /** The result of a create: the link, and whether this call made it (201) or found it (200). */
    public record Created(Link link, boolean created) {
    }

    /** One page of links and the cursor of the next, if any. */
    record Page(List<Link> links, String nextCursor) {
    }

    public Mono<Created> create(CreateLinkRequest request, ApiPrincipal caller) {
        return Mono.defer(() -> {
            Prepared prepared = prepare(request, caller);
            return prepared.link().alias() ? createAlias(prepared.link())
                    : createGenerated(prepared.link(), prepared.length());
        });
    }

    /** A create request checked and turned into the link it asks for (no code yet unless it is an alias). */
    private record Prepared(Link link, int length) {
    }

    private Prepared prepare(CreateLinkRequest request, ApiPrincipal caller) {
        caller.require(ApiScope.ADMIN, ApiScope.CREATE);
        String url = urlPolicy.normalize(request.url());
        Instant now = now();
        if (request.expiresAt() != null && !request.expiresAt().isAfter(now)) {
            throw invalid("expiresAt", "expiresAt must be in the future.");
        }
        if (request.maxVisits() != null && request.maxVisits() < 1) {
            throw invalid("maxVisits", "maxVisits must be a positive number.");
        }
        int status = request.redirectStatus() == null ? Link.DEFAULT_REDIRECT_STATUS : request.redirectStatus();
        checkStatus(status);
        Instant expiresAt = request.expiresAt() == null ? null : request.expiresAt().truncatedTo(ChronoUnit.MILLIS);
        if (request.alias() != null) {
            if (request.length() != null) {
                throw invalid("length", "Give either alias or length, not both.");
            }
            String alias = checkAlias(request.alias());
            return new Prepared(new Link(alias, url, status, true, now, expiresAt, request.maxVisits(),
                    Boolean.TRUE.equals(request.disabled()), Boolean.TRUE.equals(request.forwardQuery()),
                    caller.keyId(), null), alias.length());
        }
        int length = request.length() == null ? codegen.defaultLength() : request.length();
        if (length < CodeGenerator.MIN_LENGTH || length > CodeGenerator.MAX_LENGTH) {
            throw Problem.INVALID_LENGTH.toException("length must be between " + CodeGenerator.MIN_LENGTH
                    + " and " + CodeGenerator.MAX_LENGTH + ", got " + length + ".").with("field", "length");
        }
        return new Prepared(new Link(null, url, status, false, now, expiresAt, request.maxVisits(),
                Boolean.TRUE.equals(request.disabled()), Boolean.TRUE.equals(request.forwardQuery()),
                caller.keyId(), null), length);
    }

    /** One batch item's outcome: the link made or found, or the problem it answers. */
    record ItemResult(int index, Created created, ProblemException problem) {

        static ItemResult of(int index, Created created) {
            return new ItemResult(index, created, null);
        }

        static ItemResult failed(int index, ProblemException problem) {
            return new ItemResult(index, null, problem);
        }
    }

    /**
     * Creates a batch, behaving as a create per item (find-if-exists and per-item problems alike) but with one round
     * trip per step for all generated items together: one query for the links their URLs already have, one
     * multi-row insert of a first candidate each, one query to see which rows went in. Only the items whose candidate
     * was taken (a collision, a concurrent create of the same link) and aliases go through the create of one link.
     * Results come as items finish, in no particular order; a non-problem failure (the database down) fails it.
     *
     * @param concurrency how many single creates (aliases, conflicting items) run at once
     */
    Flux<ItemResult> createBatch(List<CreateLinkRequest> items, ApiPrincipal caller, int concurrency) {
        return Flux.defer(() -> {
            List<ItemResult> refused = new ArrayList<>();
            List<Integer> single = new ArrayList<>();
            Map<Integer, Prepared> generated = new LinkedHashMap<>();
            for (int i = 0; i < items.size(); i++) {
                CreateLinkRequest item = items.get(i);
                if (item == null) {
                    refused.add(ItemResult.failed(i, Problem.INVALID_REQUEST.toException("Item is null.")));
                    continue;
                }
                try {
                    Prepared prepared = prepare(item, caller);
                    if (prepared.link().alias()) {
                        single.add(i);
                    } else {
                        generated.put(i, prepared);
                    }
                } catch (ProblemException e) {
                    refused.add(ItemResult.failed(i, e));
                }
            }
            Flux<ItemResult> singles = Flux.fromIterable(single)
                    .flatMap(i -> one(i, create(items.get(i), caller)), concurrency);
            List<Map<Integer, Prepared>> chunks = new ArrayList<>();
            generated.forEach((index, prepared) -> {
                if (chunks.isEmpty() || chunks.get(chunks.size() - 1).size() >= BATCH_CHUNK) {
                    chunks.add(new LinkedHashMap<>());
                }
                chunks.get(chunks.size() - 1).put(index, prepared);
            });
            Flux<ItemResult> together = Flux.fromIterable(chunks)
                    .flatMap(chunk -> createGeneratedTogether(chunk, concurrency), BATCH_CHUNKS_AT_ONCE);
            return Flux.concat(Flux.fromIterable(refused), Flux.merge(together, singles));
        });
    }

    private Flux<ItemResult> createGeneratedTogether(Map<Integer, Prepared> wanted, int concurrency) {
        if (wanted.isEmpty()) {
            return Flux.empty();
        }
        Set<String> urls = new HashSet<>();
        wanted.values().forEach(prepared -> urls.add(prepared.link().url()));
        return links.findGenerated(urls).collectList().flatMapMany(existing -> {
            Map<String, List<Link>> byUrl = new HashMap<>();
            existing.forEach(link -> byUrl.computeIfAbsent(link.url(), url -> new ArrayList<>()).add(link));
            List<ItemResult> found = new ArrayList<>();
            Map<Integer, Prepared> toMake = new LinkedHashMap<>();
            List<Integer> again = new ArrayList<>(); // the same link as an earlier item: found once that one is made
            Set<List<Object>> seen = new HashSet<>();
            wanted.forEach((index, prepared) -> {
                Link match = byUrl.getOrDefault(prepared.link().url(), List.of()).stream()
                        .filter(link -> link.code().length() == prepared.length() && link.satisfies(prepared.link()))
                        .findFirst().orElse(null);
                if (match != null) {
                    found.add(ItemResult.of(index, new Created(match, false)));
                } else if (!seen.add(sameness(prepared))) {
                    again.add(index);
                } else {
                    toMake.put(index, prepared);
                }
            });
            Flux<ItemResult> made = toMake.isEmpty() ? Flux.empty() : makeTogether(toMake, concurrency);
            Flux<ItemResult> repeats = Flux.fromIterable(again).flatMap(index -> {
                Prepared prepared = wanted.get(index);
                return one(index, createGenerated(prepared.link(), prepared.length()));
            }, concurrency);
            return Flux.concat(Flux.fromIterable(found), made, repeats);
        });
    }

    /** What makes two items of a batch the same create: find-if-exists would give the second the first's link. */
    private static List<Object> sameness(Prepared prepared) {
        Link link = prepared.link();
        return Arrays.asList(link.url(), prepared.length(), link.redirectStatus(), link.expiresAt(), link.maxVisits(),
                link.disabled(), link.forwardQuery(), link.apiKeyId());
    }

    private Flux<ItemResult> makeTogether(Map<Integer, Prepared> toMake, int concurrency) {
        List<Integer> indexes = new ArrayList<>(toMake.keySet());
        return allocator.flatMap(codes -> Flux.fromIterable(indexes)
                        .flatMapSequential(index -> {
                            Prepared prepared = toMake.get(index);
                            return codes.firstCandidate(prepared.link().url(), prepared.length())
                                    .map(code -> withCode(prepared.link(), code));
                        }, 64)
                        .collectList())
                .flatMapMany(candidates -> links.insertAll(candidates)
                        .then(links.findByCodes(candidates.stream().map(Link::code).toList()))
                        .flatMapMany(held -> {
                            List<ItemResult> madeResults = new ArrayList<>();
                            List<Integer> conflicting = new ArrayList<>();
                            for (int n = 0; n < candidates.size(); n++) {
                                Link candidate = candidates.get(n);
                                if (candidate.equals(held.get(candidate.code()))) { // this very row: ours
                                    Created created = new Created(candidate, true);
                                    madeResults.add(ItemResult.of(indexes.get(n), created));
                                } else {
                                    conflicting.add(indexes.get(n));
                                }
                            }
                            Flux<ItemResult> announced = Flux.fromIterable(madeResults)
                                    .flatMap(result -> announce(result.created()).thenReturn(result), 256);
                            Flux<ItemResult> resolved = Flux.fromIterable(conflicting).flatMap(index -> {
                                Prepared prepared = toMake.get(index);
                                return one(index, createGenerated(prepared.link(), prepared.length()));
                            }, concurrency);
                            return Flux.merge(announced, resolved);
                        }));
    }

    private static Mono<ItemResult> one(int index, Mono<Created> create) {
        return create.map(created -> ItemResult.of(index, created))
                .onErrorResume(ProblemException.class, e -> Mono.just(ItemResult.failed(index, e)));
    }

    public Mono<Link> get(String code, ApiPrincipal caller) {
        return live(code).filter(link -> caller.canRead(link.apiKeyId())).switchIfEmpty(notFound(code));
    }

    Mono<Page> list(String cursor, Integer limit, ApiPrincipal caller) {
        return Mono.defer(() -> {
            int size = limit == null ? 50 : limit;
            if (size < 1 || size > MAX_PAGE) {
                throw invalid("limit", "limit must be between 1 and " + MAX_PAGE + ".");
            }
            Instant afterTime = null;
            String afterCode = null;
            if (cursor != null && !cursor.isEmpty()) {
                String decoded;
                try {
                    decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw invalid("cursor", "cursor is not one this API gave out.");
                }
                int colon = decoded.indexOf(':');
                try {
                    afterTime = Instant.ofEpochMilli(Long.parseLong(decoded.substring(0, Math.max(colon, 0))));
                } catch (NumberFormatException e) {
                    throw invalid("cursor", "cursor is not one this API gave out.");
                }
                afterCode = decoded.substring(colon + 1);
            }
            Long owner = caller.scope() == ApiScope.CREATE ? caller.keyId() : null;
            if (caller.scope() == ApiScope.CREATE && owner == null) {
                return Mono.just(new Page(List.of(), null));
            }
            return links.page(owner, afterTime, afterCode, size + 1).collectList().map(page -> {
                if (page.size() <= size) {
                    return new Page(page, null);
                }
                Link last = page.get(size - 1);
                String next = Base64.getUrlEncoder().withoutPadding().encodeToString(
                        (last.createdAt().toEpochMilli() + ":" + last.code()).getBytes(StandardCharsets.UTF_8));
                return new Page(page.subList(0, size), next);
            });
        });
    }

    /**
     * Applies a JSON merge patch (RFC 7386) to a link's editable fields. The write is conditional on the version
     * read, so two concurrent patches never undo each other's fields: the one that loses the race re-reads the
     * link and applies its patch to the new state, up to {@link #PATCH_ATTEMPTS} times.
     */
    public Mono<Link> update(String code, LinkPatch patch, ApiPrincipal caller) {
        return Mono.defer(() -> changeableVersioned(code, caller).flatMap(current -> applyPatch(current, patch)))
                .retryWhen(Retry.max(PATCH_ATTEMPTS - 1).filter(LostRace.class::isInstance))
                .onErrorMap(Exceptions::isRetryExhausted, e -> Problem.LINK_CHANGED_CONCURRENTLY.toException(
                        "The link kept changing while this change was applied; try again."));
    }

    private Mono<Link> applyPatch(LinkRepository.Versioned versioned, LinkPatch patch) {
        Link current = versioned.link();
        String url = current.url();
        if (patch.has("url")) {
            if (patch.url() == null) {
                throw invalid("url", "url must be a string.");
            }
            url = urlPolicy.normalize(patch.url());
        }
        Instant expiresAt = current.expiresAt();
        if (patch.has("expiresAt")) {
            expiresAt = patch.expiresAt() == null ? null : patch.expiresAt().truncatedTo(ChronoUnit.MILLIS);
        }
        Long maxVisits = current.maxVisits();
        if (patch.has("maxVisits")) {
            if (patch.maxVisits() != null && patch.maxVisits() < 1) {
                throw invalid("maxVisits", "maxVisits must be a positive whole number, or null to remove the limit.");
            }
            maxVisits = patch.maxVisits();
        }
        boolean disabled = patch.has("disabled") ? bool(patch.disabled(), "disabled") : current.disabled();
        boolean forwardQuery = patch.has("forwardQuery")
                ? bool(patch.forwardQuery(), "forwardQuery") : current.forwardQuery();
        int status = current.redirectStatus();
        if (patch.has("redirectStatus")) {
            if (patch.redirectStatus() == null) {
                throw invalid("redirectStatus", "redirectStatus must be 301, 302, 307 or 308.");
            }
            status = patch.redirectStatus();
            checkStatus(status);
        }
        Link changed = new Link(current.code(), url, status, current.alias(), current.createdAt(), expiresAt,
                maxVisits, disabled, forwardQuery, current.apiKeyId(), null);
        return links.update(changed, versioned.version(), clock.instant())
                .flatMap(updated -> updated ? changes.changed(changed).thenReturn(changed)
                        : Mono.error(new LostRace()));
    }

    /** Another write got to the link between this patch's read and its write. */
    private static final class LostRace extends RuntimeException {
        LostRace() {
            super("link changed since it was read", null, false, false);
        }
    }

    /** Deletes a link, keeping a tombstone so its code is never given to another URL. */
    public Mono<Void> delete(String code, ApiPrincipal caller) {
        Instant now = now();
        return changeable(code, caller).flatMap(link -> links.markDeleted(code, now).flatMap(deleted -> deleted
                ? changes.changed(new Link(link.code(), link.url(), link.redirectStatus(), link.alias(),
                        link.createdAt(), link.expiresAt(), link.maxVisits(), link.disabled(), link.forwardQuery(),
                        link.apiKeyId(), now))
                : Mono.<Void>error(notFoundProblem(code))));
    }

    private Mono<LinkRepository.Versioned> changeableVersioned(String code, ApiPrincipal caller) {
        Mono<LinkRepository.Versioned> live = ALIAS.matcher(code).matches()
                ? links.findVersioned(code).filter(found -> found.link().deletedAt() == null)
                : Mono.empty();
        return live.filter(found -> caller.canRead(found.link().apiKeyId()))
                .switchIfEmpty(notFound(code))
                .map(found -> {
                    if (!caller.canChange(found.link().apiKeyId())) {
                        throw Problem.FORBIDDEN.toException("This API key may not change this link.");
                    }
                    return found;
                });
    }

    private Mono<Link> changeable(String code, ApiPrincipal caller) {
        return live(code)
                .filter(link -> caller.canRead(link.apiKeyId()))
                .switchIfEmpty(notFound(code))
                .map(link -> {
                    if (!caller.canChange(link.apiKeyId())) {
                        throw Problem.FORBIDDEN.toException("This API key may not change this link.");
                    }
                    return link;
                });
    }

    private Mono<Link> live(String code) {
        return ALIAS.matcher(code).matches()
                ? links.findByCode(code).filter(link -> link.deletedAt() == null)
                : Mono.empty();
    }

    private Mono<Created> createGenerated(Link wanted, int length) {
        Mono<Created> existing = links.findGenerated(wanted.url())
                .filter(link -> link.code().length() == length && link.satisfies(wanted))
                .next()
                .map(link -> new Created(link, false));
        return existing.switchIfEmpty(Mono.defer(() -> allocator.flatMap(codes -> codes.allocate(wanted.url(), length,
                        code -> claim(code, wanted), existing))))
                .onErrorMap(CodeSpaceExhaustedException.class, e -> Problem.CODE_SPACE_EXHAUSTED.toException(
                                "No free code of length " + length + " was found after " + e.rounds()
                                        + " rounds; try a longer length.")
                        .with("length", length))
                .flatMap(this::announce);
    }

    /**
     * Takes {@code code} for the wanted link, or finds that it, or a concurrent create of the same link under another
     * code, already holds it; empty when another link holds the code.
     */
    private Mono<Created> claim(String code, Link wanted) {
        Link candidate = withCode(wanted, code);
        return links.insert(candidate).flatMap(inserted -> inserted
                ? Mono.just(new Created(candidate, true))
                : links.findByCode(code)
                        .filter(holder -> holder.satisfies(candidate))
                        .switchIfEmpty(Mono.defer(() -> links.findByCreateKey(wanted, code.length())))
                        .filter(holder -> holder.satisfies(candidate))
                        .map(holder -> new Created(holder, false))
                        .switchIfEmpty(Mono.fromRunnable(collisions::increment)));
    }

    private Mono<Created> createAlias(Link candidate) {
        return links.insert(candidate)
                .flatMap(inserted -> inserted
                        ? Mono.just(new Created(candidate, true))
                        : links.findByCode(candidate.code())
                                .filter(holder -> holder.satisfies(candidate))
                                .map(holder -> new Created(holder, false))
                                .switchIfEmpty(Mono.error(() -> Problem.ALIAS_TAKEN.toException(
                                        "The alias '" + candidate.code() + "' is already taken.")
                                        .with("field", "alias"))))
                .flatMap(this::announce);
    }

    private Mono<Created> announce(Created created) {
        if (!created.created()) {
            return Mono.just(created);
        }
        (created.link().alias() ? createdAlias : createdGenerated).increment();
        return changes.created(created.link()).thenReturn(created);
    }

    private static Link withCode(Link link, String code) {
        return new Link(code, link.url(), link.redirectStatus(), link.alias(), link.createdAt(), link.expiresAt(),
                link.maxVisits(), link.disabled(), link.forwardQuery(), link.apiKeyId(), link.deletedAt());
    }

    private static String checkAlias(String alias) {
        if (!ALIAS.matcher(alias).matches()) {
            throw Problem.INVALID_ALIAS.toException("alias must be 1 to 64 characters of A-Z, a-z, 0-9, '_' and '-'.")
                    .with("field", "alias");
        }
        if (RESERVED.contains(alias.toLowerCase(Locale.ROOT))) {
            throw Problem.INVALID_ALIAS.toException("alias '" + alias + "' is reserved.").with("field", "alias");
        }
        return alias;
    }

    private static void checkStatus(int status) {
        if (!REDIRECT_STATUSES.contains(status)) {
            throw invalid("redirectStatus", "redirectStatus must be 301, 302, 307 or 308.");
        }
    }

    private static boolean bool(Boolean value, String field) {
        if (value == null) {
            throw invalid(field, field + " must be true or false.");
        }
        return value;
    }

    private static ProblemException invalid(String field, String detail) {
        return Problem.INVALID_REQUEST.toException(detail).with("field", field);
    }

    private static <T> Mono<T> notFound(String code) {
        return Mono.error(() -> notFoundProblem(code));
    }

    private static ProblemException notFoundProblem(String code) {
        return Problem.LINK_NOT_FOUND.toException("No link has the code '" + code + "'.").with("code", code);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
