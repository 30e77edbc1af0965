package dev.shortgate.redirect.warmup;

import java.util.List;
import java.util.function.IntFunction;

import dev.shortgate.redirect.lookup.LinkLookup;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * What a starting pod does before it reports ready, in order: open the pools (R2DBC, Lettuce); load the hottest
 * codes from Redis into the near cache through the lookup (which warms the Redis and database tiers' code too); then
 * send itself {@code requests} redirect requests on its traffic port, over the hot codes and, one in eight, unknown
 * codes, so the JIT compiles the request path (the fast path and the lookup path) before real traffic comes. Those
 * requests carry {@link WarmupRequests}' mark, so none is a visit or a metric.
 */
final class Warmup {

    private static final Logger log = LoggerFactory.getLogger(Warmup.class);

    /** Lookups of the preload in flight: they wait on Redis, not on this pod's CPU. */
    private static final int PRELOAD_CONCURRENCY = 64;

    private final Mono<?> pools;
    private final HotCodes hot;
    private final LinkLookup lookup;
    private final WarmupRequests marks;
    private final WarmupProperties properties;

    Warmup(Mono<?> pools, HotCodes hot, LinkLookup lookup, WarmupRequests marks, WarmupProperties properties) {
        this.pools = pools;
        this.hot = hot;
        this.lookup = lookup;
        this.marks = marks;
        this.properties = properties;
    }

    /** The whole warm-up against the traffic port; each step's failure is logged and the next step runs. */
    Mono<Void> run(int port) {
        Mono<List<String>> codes = hot.hottest(properties.hotCodes())
                .onErrorResume(error -> skipped("reading the hot codes", error).thenReturn(List.of()));
        return pools.then()
                .onErrorResume(error -> skipped("opening the pools", error))
                .then(codes)
                .flatMap(hottest -> preload(hottest).then(requests(port, hottest)));
    }

    /** Looks each code up through the tiers, 64 at a time, so the near cache holds it. */
    Mono<Void> preload(List<String> codes) {
        return Flux.fromIterable(codes)
                .flatMap(code -> lookup.find(code).onErrorResume(error -> Mono.empty()), PRELOAD_CONCURRENCY)
                .then()
                .doOnSuccess(done -> log.info("Warm-up: preloaded {} hot code(s)", codes.size()));
    }

    private Mono<Void> requests(int port, List<String> codes) {
        if (properties.requests() == 0) {
            return Mono.empty();
        }
        ConnectionProvider connections = ConnectionProvider.builder("shortgate-warmup")
                .maxConnections(properties.concurrency())
                .build();
        HttpClient client = HttpClient.create(connections)
                .baseUrl("http://127.0.0.1:" + port)
                .headers(headers -> headers.set(HttpHeaderNames.USER_AGENT, marks.userAgent()));
        IntFunction<String> code =
                i -> codes.isEmpty() || i % 8 == 7 ? "warmup-unknown-" + (i % 64) : codes.get(i % codes.size());
        return Flux.range(0, properties.requests())
                .flatMap(
                        i -> client.get()
                                .uri("/" + code.apply(i))
                                .responseSingle((response, body) -> body.then())
                                .onErrorResume(error -> Mono.empty()),
                        properties.concurrency())
                .then()
                .doOnSuccess(done -> log.info("Warm-up: sent {} internal request(s)", properties.requests()))
                .doFinally(signal -> connections.disposeLater().subscribe());
    }

    private static Mono<Void> skipped(String step, Throwable error) {
        log.warn("Warm-up: {} failed, going on: {}", step, error.toString());
        return Mono.empty();
    }
}
