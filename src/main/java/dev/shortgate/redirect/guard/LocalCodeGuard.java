package dev.shortgate.redirect.guard;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import dev.shortgate.link.store.LinkRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The Bloom filter of codes of a pod without Redis (Guava's {@link BloomFilter}): built from the database at
 * startup in the background, then told of every code this pod creates, and every {@code refresh} of the codes
 * created since the last look, so codes that other pods sharing the database created, or that were inserted into
 * the database directly, are known within that interval.
 */
public final class LocalCodeGuard implements UnknownCodeGuard, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LocalCodeGuard.class);
    /** How far back each refresh looks past the previous one: room for clocks that differ between pods. */
    private static final Duration CLOCK_SLACK = Duration.ofMinutes(1);

    private final BloomFilter<CharSequence> filter;
    private final LinkRepository links;
    private final Clock clock;
    private final Duration refresh;
    private final Scheduler scheduler;
    private volatile boolean ready;
    private volatile Disposable running;

    public LocalCodeGuard(
            LinkRepository links,
            long expectedCodes,
            double falsePositiveRate,
            Duration refresh,
            Clock clock,
            Scheduler scheduler) {
        this.filter =
                BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), expectedCodes, falsePositiveRate);
        this.links = links;
        this.clock = clock;
        this.refresh = refresh;
        this.scheduler = scheduler;
    }

    @Override
    public Mono<Boolean> mayExist(String code) {
        return Mono.just(!ready || filter.mightContain(code));
    }

    @Override
    public Mono<Void> add(String code) {
        return Mono.fromRunnable(() -> filter.put(code));
    }

    @Override
    public boolean ready() {
        return ready;
    }

    @Override
    public void start() {
        Instant began = clock.instant();
        running = links.allCodes(2_000)
                .doOnNext(filter::put)
                .count()
                .doOnNext(count -> {
                    ready = true;
                    log.info("Built the unknown-code guard: {} codes", count);
                })
                .thenMany(Flux.interval(refresh, scheduler)
                        .scan(began, (since, tick) -> clock.instant())
                        .concatMap(since -> links.codesCreatedSince(since.minus(CLOCK_SLACK))
                                .doOnNext(filter::put)
                                .onErrorResume(error -> Flux.empty())))
                .subscribe(
                        null,
                        error -> log.warn(
                                "Could not build the unknown-code guard; lookups of unknown codes "
                                        + "reach the database: {}",
                                error.toString()));
    }

    @Override
    public void stop() {
        Disposable current = running;
        if (current != null) {
            current.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        Disposable current = running;
        return current != null && !current.isDisposed();
    }
}
