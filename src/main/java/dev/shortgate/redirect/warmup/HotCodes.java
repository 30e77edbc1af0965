package dev.shortgate.redirect.warmup;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.shortgate.system.redis.SharedRedis;
import io.lettuce.core.ScoredValue;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.ItemsSketch;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The hottest codes, kept in Redis so a starting pod can preload them. Each pod counts a sample of its redirects in
 * a bounded heavy-hitter sketch (DataSketches' frequent items); every {@code publish-every} it adds the sketch's top
 * codes to a sorted set per time window ({@code <prefix>hot:<window>}: {@code ZINCRBY}, then trimmed to the
 * {@code hot-codes} highest with {@code ZREMRANGEBYRANK} and expiring after the next window), and starts a new
 * sketch. Plain Redis has no Top-K, so the bound is the trim. A starting pod reads the current and the previous
 * window's set. Without Redis the pod has no one to share with, and {@link #hottest} is empty.
 */
public class HotCodes {

    /** Counts nothing, knows nothing. */
    public static final HotCodes NONE = new HotCodes(null, "", null, 0, 1, Duration.ofMinutes(10)) {
        @Override
        public void seen(String code) {}
    };

    private static final int SKETCH_MAP_SIZE = 4096; // a power of two: tracks about 3,000 codes, 100 KB

    private final SharedRedis redis;
    private final String prefix;
    private final Clock clock;
    private final int size;
    private final int sampleOneIn;
    private final Duration window;
    private ItemsSketch<String> sketch = new ItemsSketch<>(SKETCH_MAP_SIZE);

    HotCodes(SharedRedis redis, String prefix, Clock clock, int size, int sampleOneIn, Duration window) {
        this.redis = redis;
        this.prefix = prefix;
        this.clock = clock;
        this.size = size;
        this.sampleOneIn = sampleOneIn;
        this.window = window;
    }

    /** A redirect answered for this code; counts one in {@code sample-one-in}, at the cost of a random number. */
    public void seen(String code) {
        if (sampleOneIn == 1 || ThreadLocalRandom.current().nextInt(sampleOneIn) == 0) {
            synchronized (this) {
                sketch.update(code);
            }
        }
    }

    /** The sketch's hottest codes since the last publish, hottest first, with their estimated (sampled) counts. */
    synchronized List<ScoredValue<String>> local() {
        List<ScoredValue<String>> top = new ArrayList<>();
        for (var row : sketch.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES)) {
            if (top.size() == size) {
                break;
            }
            top.add(ScoredValue.just(row.getEstimate(), row.getItem()));
        }
        return top;
    }

    /** Adds the sketch's hottest codes to the current window's set in Redis, trims it, and starts a new sketch. */
    Mono<Void> publish() {
        if (redis == null || size == 0) {
            return Mono.empty();
        }
        List<ScoredValue<String>> top;
        synchronized (this) {
            top = local();
            sketch = new ItemsSketch<>(SKETCH_MAP_SIZE);
        }
        if (top.isEmpty()) {
            return Mono.empty();
        }
        String key = key(0);
        return redis.commands().flatMap(commands -> {
            var zsets = commands.sortedSets();
            return Flux.fromIterable(top)
                    .concatMap(scored -> zsets.zincrby(
                            key, scored.getScore(), scored.getValue().getBytes(StandardCharsets.UTF_8)))
                    .then(zsets.zremrangebyrank(key, 0, -(size + 1L)))
                    .then(commands.keys().pexpire(key, window.multipliedBy(2).toMillis()))
                    .then();
        });
    }

    /** The hottest codes in Redis, hottest first: the current window's, then the previous one's; at most {@code n}. */
    Mono<List<String>> hottest(int n) {
        if (redis == null || n == 0) {
            return Mono.just(List.of());
        }
        return redis.commands()
                .flatMap(commands -> Flux.concat(
                                commands.sortedSets().zrevrange(key(0), 0, n - 1L),
                                commands.sortedSets().zrevrange(key(-1), 0, n - 1L))
                        .map(member -> new String(member, StandardCharsets.UTF_8))
                        .collect(LinkedHashSet<String>::new, LinkedHashSet::add))
                .map(codes -> codes.stream().limit(n).toList());
    }

    /** The set of the window {@code offset} windows from now's. */
    String key(int offset) {
        long index = clock.millis() / window.toMillis() + offset;
        return prefix + "hot:" + index;
    }
}
