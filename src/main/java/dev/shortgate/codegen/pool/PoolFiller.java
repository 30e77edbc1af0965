package dev.shortgate.codegen.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.shortgate.codegen.Base62;
import dev.shortgate.codegen.CodegenProperties;
import dev.shortgate.codegen.TakenCodes;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Keeps the {@code pool} strategy's pool between its water marks: every {@code fill-interval} it reads the level of
 * each pooled length, and when it is below the low mark, adds random codes that no link holds (checked a chunk at a
 * time with one query) until the high mark. Several pods may fill at once; they only overshoot the high mark a
 * little. The level is the gauge {@code shortgate.codegen.pool.size} (tag {@code length}); the dashboard alerts
 * when it stays low, which means creates outrun the filler and fall back to unchecked random codes.
 */
public final class PoolFiller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PoolFiller.class);

    private final CodePool pool;
    private final TakenCodes taken;
    private final CodegenProperties.Pool settings;
    private final List<Integer> lengths;
    private final Scheduler scheduler;
    private final Map<Integer, AtomicLong> levels = new TreeMap<>();
    private volatile Disposable filling;

    public PoolFiller(
            CodePool pool,
            TakenCodes taken,
            CodegenProperties.Pool settings,
            List<Integer> lengths,
            Scheduler scheduler,
            MeterRegistry registry) {
        this.pool = pool;
        this.taken = taken;
        this.settings = settings;
        this.lengths = List.copyOf(lengths);
        this.scheduler = scheduler;
        for (int length : this.lengths) {
            AtomicLong level = new AtomicLong();
            levels.put(length, level);
            Gauge.builder("shortgate.codegen.pool.size", level, AtomicLong::get)
                    .description("Codes in the shared pool of the pool strategy, as this pod last read it")
                    .tag("length", Integer.toString(length))
                    .register(registry);
        }
    }

    /** One pass: tops up every pooled length that is below its low mark. */
    Mono<Void> fillOnce() {
        return Flux.fromIterable(lengths)
                .concatMap(length -> pool.size(length)
                        .doOnNext(size -> levels.get(length).set(size))
                        .flatMap(size ->
                                size >= settings.lowWater() ? Mono.empty() : topUp(length, settings.highWater() - size))
                        .onErrorResume(error -> {
                            log.warn("Could not fill the code pool of length {}: {}", length, error.toString());
                            return Mono.empty();
                        }))
                .then();
    }

    private Mono<Void> topUp(int length, long wanted) {
        long space = Base62.spaceSize(length);
        int chunk = (int) Math.min(settings.chunk(), Math.max(1, space / 4)); // short lengths have few codes
        long chunks = (wanted + chunk - 1) / chunk;
        return Flux.range(0, (int) Math.min(chunks, Integer.MAX_VALUE))
                .concatMap(
                        i -> {
                            Set<String> fresh = new LinkedHashSet<>();
                            for (int n = 0; n < chunk * 2 && fresh.size() < chunk; n++) {
                                fresh.add(RandomCodes.next(length));
                            }
                            return taken.taken(fresh).flatMap(held -> {
                                List<String> free = new ArrayList<>(fresh);
                                free.removeAll(held);
                                return pool.add(length, free).thenReturn((long) free.size());
                            });
                        },
                        1)
                .reduce(0L, Long::sum)
                .flatMap(added -> pool.size(length))
                .doOnNext(size -> levels.get(length).set(size))
                .then();
    }

    @Override
    public void start() {
        if (lengths.isEmpty()) {
            return; // not the pool strategy
        }
        filling = Flux.interval(Duration.ZERO, settings.fillInterval(), scheduler)
                .onBackpressureDrop()
                .concatMap(tick -> fillOnce(), 1)
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable current = filling;
        if (current != null) {
            current.dispose();
        }
        filling = null;
    }

    @Override
    public boolean isRunning() {
        return filling != null;
    }

    /** After the shared Redis connection is opened, before the web server takes requests. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }
}
