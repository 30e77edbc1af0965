package dev.shortgate.redirect.warmup;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import dev.shortgate.redirect.lookup.LinkLookup;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * What a starting pod does before it reports ready, in order: open the pools (R2DBC, Lettuce); preload the hottest
 * codes in Redis into the near cache in batches ({@link LinkLookup#preload}); fill the near cache with whatever else
 * Redis holds, up to {@code preload-max} links, for at most {@code preload-within}
 * ({@link LinkLookup#preloadWorkingSet}); then send itself {@code requests} redirect requests on its traffic port (at
 * most for {@code requests-within}), so the JIT compiles the request path before real traffic comes, and more while
 * the JIT compilers stay busy ({@link JitActivity}, {@code jit-quiet-below}). Those requests
 * go over the hot codes, topped up to {@code hot-codes} with codes the near cache now holds, and, one in eight,
 * unknown codes; the passes over them alternate: before every other pass this pod's near cache forgets them, so
 * those requests are near-cache misses answered from Redis, and the passes between are near-cache hits. That is the
 * mix a new pod's traffic brings, and the JIT compiles for the branches it has seen taken: warmed on hits alone, a
 * new pod served its first ten seconds of misses at a few hundred a second; warmed on misses alone, its compiled
 * request path met the hits of a preloaded near cache as a branch it had never seen. Last, what an unfinished pass
 * left forgotten is preloaded again. The requests carry {@link WarmupRequests}' mark, so none is a visit or a metric.
 */
final class Warmup {

    private static final Logger log = LoggerFactory.getLogger(Warmup.class);

    /** Requests per pass when there are few or no hot codes: the unknown codes' path wants compiling too. */
    private static final int LEAST_PASS = 64;

    /** The shortest window over which the JIT's activity is judged. */
    static final long JIT_WINDOW_MILLIS = 1_000;

    private final Mono<?> pools;
    private final HotCodes hot;
    private final LinkLookup lookup;
    private final WarmupRequests marks;
    private final WarmupProperties properties;
    private final Scheduler timer;
    private final JitActivity jit;
    private final Counter preloadedHot;
    private final Counter preloadedWorkingSet;

    Warmup(
            Mono<?> pools,
            HotCodes hot,
            LinkLookup lookup,
            WarmupRequests marks,
            WarmupProperties properties,
            Scheduler timer,
            JitActivity jit,
            MeterRegistry registry) {
        this.pools = pools;
        this.hot = hot;
        this.lookup = lookup;
        this.marks = marks;
        this.properties = properties;
        this.timer = timer;
        this.jit = jit;
        this.preloadedHot = preloaded(registry, "hot");
        this.preloadedWorkingSet = preloaded(registry, "working-set");
    }

    private static Counter preloaded(MeterRegistry registry, String set) {
        return Counter.builder("shortgate.warmup.preloaded")
                .description("Links a starting pod put into its near cache before ready, by the set they came from")
                .tag("set", set)
                .register(registry);
    }

    /** The whole warm-up against the traffic port; each step's failure is logged and the next step runs. */
    Mono<Void> run(int port) {
        Mono<List<String>> codes = hot.hottest(properties.hotCodes())
                .onErrorResume(error -> skipped("reading the hot codes", error).thenReturn(List.of()));
        return pools.then()
                .onErrorResume(error -> skipped("opening the pools", error))
                .then(codes)
                .flatMap(hottest -> preload(hottest).then(preloadWorkingSet()).then(Mono.defer(() -> {
                    List<String> requested = requestCodes(hottest);
                    return requests(port, requested)
                            .onErrorResume(error -> skipped("the internal requests", error))
                            .then(lookup.preload(requested)
                                    .onErrorResume(error ->
                                            skipped("preloading again", error).thenReturn(0))
                                    .then());
                })));
    }

    /**
     * The codes the internal requests go over: the hot codes, topped up to {@code hot-codes} (at least
     * {@value #LEAST_PASS}) with codes the near cache holds, so a pod with no hot set yet still requests links.
     */
    List<String> requestCodes(List<String> hottest) {
        int wanted = Math.max(properties.hotCodes(), LEAST_PASS);
        Set<String> codes = new LinkedHashSet<>(hottest);
        if (codes.size() < wanted) {
            codes.addAll(lookup.held(wanted));
        }
        return codes.stream().limit(Math.max(wanted, hottest.size())).toList();
    }

    /** Puts the hot codes into the near cache, read from Redis in batches. */
    Mono<Void> preload(List<String> codes) {
        return Mono.defer(() -> {
            long started = System.nanoTime();
            return lookup.preload(codes)
                    .doOnNext(held -> {
                        preloadedHot.increment(held);
                        log.info(
                                "Warm-up: preloaded {} of {} hot code(s) in {} ms",
                                held,
                                codes.size(),
                                (System.nanoTime() - started) / 1_000_000);
                    })
                    .then();
        });
    }

    /**
     * Fills the near cache with the links Redis holds, up to {@code preload-max}, for at most
     * {@code preload-within}: traffic spread over many links is served several times faster from the near cache
     * than from Redis, and a pod that held only the hot codes reached 80% of its warm throughput 20 s after ready.
     * Stopping at the bound or failing keeps what was held, and the warm-up goes on.
     */
    Mono<Void> preloadWorkingSet() {
        int max = properties.preloadMax();
        if (max == 0) {
            return Mono.empty();
        }
        return Mono.defer(() -> {
            long started = System.nanoTime();
            AtomicInteger held = new AtomicInteger();
            return lookup.preloadWorkingSet(max, held)
                    .timeout(properties.preloadWithin(), Mono.empty(), timer)
                    .onErrorResume(error -> skipped("the working-set preload", error))
                    .doOnTerminate(() -> report(held.get(), max, started))
                    .doOnCancel(() -> report(held.get(), max, started)); // the deadline: logged before ready
        });
    }

    /**
     * The internal requests, in passes over the codes (and one in eight unknown ones); before every other pass,
     * starting with the first, the near cache forgets the codes, so those requests are looked up in Redis and the
     * passes between are near-cache hits. After {@code requests}, passes go on while the JIT compilers are busy
     * ({@code jit-quiet-below}). Stops at {@code requests-within}.
     */
    private Mono<Void> requests(int port, List<String> codes) {
        int total = properties.requests();
        if (total == 0) {
            return Mono.empty();
        }
        ConnectionProvider connections = ConnectionProvider.builder("shortgate-warmup")
                .maxConnections(properties.concurrency())
                .build();
        HttpClient client = HttpClient.create(connections)
                .baseUrl("http://127.0.0.1:" + port)
                .headers(headers -> headers.set(HttpHeaderNames.USER_AGENT, marks.userAgent()));
        IntFunction<String> code = i -> codes.isEmpty() || i % 8 == 7 // (i + 1) / 8 unknown ones before i
                ? "warmup-unknown-" + (i % 64)
                : codes.get((i - (i + 1) / 8) % codes.size());
        int pass = Math.max(LEAST_PASS, codes.size() + codes.size() / 7);
        Passes passes = new Passes((total + pass - 1) / pass);
        AtomicInteger sent = new AtomicInteger();
        long started = System.nanoTime();
        return Mono.defer(() -> {
                    jit.mark();
                    return passes.send(round -> {
                        if (round % 2 == 0) {
                            lookup.forget(codes);
                        }
                        int first = round * pass;
                        int size = round < passes.counted ? Math.min(pass, total - first) : pass;
                        return Flux.range(first, size)
                                .flatMap(
                                        i -> client.get()
                                                .uri("/" + code.apply(i))
                                                .responseSingle((response, body) -> body.then())
                                                .doOnSuccess(done -> sent.incrementAndGet())
                                                .onErrorResume(error -> Mono.empty()),
                                        properties.concurrency())
                                .then();
                    });
                })
                .timeout(properties.requestsWithin(), Mono.empty())
                .doOnTerminate(() -> log.info(
                        "Warm-up: answered {} internal request(s) in {} ms ({} asked, then more while the JIT was"
                                + " busy); {}",
                        sent.get(),
                        (System.nanoTime() - started) / 1_000_000,
                        total,
                        passes.lastWindow == 0
                                ? "the JIT's activity was not judged"
                                : "the JIT compiled for " + Math.round(passes.lastBusy * 100) + "% of the last "
                                        + passes.lastWindow + " ms"))
                .doOnCancel(() -> log.info("Warm-up: internal requests cancelled after {} answered", sent.get()))
                .doFinally(signal -> connections.disposeLater().subscribe());
    }

    /** The passes of the internal requests: the {@code counted} ones, then more while the JIT is busy. */
    private final class Passes {

        final int counted;
        volatile double lastBusy = Double.MAX_VALUE; // no window judged yet: busy
        volatile long lastWindow;

        Passes(int counted) {
            this.counted = counted;
        }

        /** The passes, each sent once the one before has been answered, as long as {@link #more} says. */
        Mono<Void> send(IntFunction<Mono<Void>> pass) {
            return Flux.range(0, Integer.MAX_VALUE)
                    .concatMap(round -> pass.apply(round).thenReturn(round))
                    .takeWhile(round -> more(round + 1))
                    .then();
        }

        /** Whether to send pass {@code next}: one of the counted ones, or the JIT was busy over the last window. */
        boolean more(int next) {
            long window = jit.elapsedMillis();
            if (window >= JIT_WINDOW_MILLIS) {
                lastBusy = jit.busy();
                lastWindow = window;
                jit.mark();
            }
            if (next < counted) {
                return true;
            }
            double quietBelow = properties.jitQuietBelow();
            return quietBelow > 0 && lastBusy >= quietBelow;
        }
    }

    private void report(int held, int max, long started) {
        preloadedWorkingSet.increment(held);
        log.info(
                "Warm-up: preloaded {} link(s) of the working set from Redis in {} ms{}",
                held,
                (System.nanoTime() - started) / 1_000_000,
                held >= max ? " (preload-max)" : "");
    }

    private static Mono<Void> skipped(String step, Throwable error) {
        log.warn("Warm-up: {} failed, going on: {}", step, error.toString());
        return Mono.empty();
    }
}
