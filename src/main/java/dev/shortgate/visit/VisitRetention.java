package dev.shortgate.visit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import dev.shortgate.system.problem.Causes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Deletes raw visit rows (of links and orphan visits) older than {@code raw-retention}, in the background, every {@code retention-interval}:
 * in statements of at most {@code retention-batch-size} rows, one after the other, so no deletion holds many
 * locks or a long transaction. Visit ids start with the visit's second ({@link VisitId}), so "older than" is an id
 * range on the primary key: no index on the visit time is needed. Counts, dimensions and sketches are kept. It
 * also forgets count-flush ids older than a day ({@code visit_flush}): a retry comes within minutes. Every pod runs
 * it; deletions are idempotent.
 */
public final class VisitRetention implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(VisitRetention.class);
    private static final Duration FLUSH_IDS_KEPT = Duration.ofDays(1);

    private final DatabaseClient db;
    private final VisitProperties properties;
    private final Clock clock;
    private final Scheduler timer;
    private final Counter deleted;
    private Disposable task;

    public VisitRetention(
            DatabaseClient db, VisitProperties properties, Clock clock, Scheduler timer, MeterRegistry registry) {
        this.db = db;
        this.properties = properties;
        this.clock = clock;
        this.timer = timer;
        this.deleted = Counter.builder("shortgate.visits.retention.deleted")
                .description("Raw visit rows deleted for being older than the raw retention")
                .register(registry);
    }

    /** Deletes every raw row older than the retention, batch by batch; the number deleted. */
    public Mono<Long> deleteOldRows() {
        Instant now = clock.instant();
        byte[] bound = VisitId.firstOfSecond(now.minus(properties.rawRetention()));
        int batch = properties.retentionBatchSize();
        Mono<Long> oneBatch = Mono.defer(() -> db.sql("DELETE FROM visit WHERE id < :bound LIMIT " + batch)
                .bind("bound", bound)
                .fetch()
                .rowsUpdated()
                .doOnNext(deleted::increment));
        Mono<Long> oneOrphanBatch = Mono.defer(() -> db.sql("DELETE FROM orphan_visit WHERE id < :bound LIMIT " + batch)
                .bind("bound", bound)
                .fetch()
                .rowsUpdated()
                .doOnNext(deleted::increment));
        Mono<Long> rows = Flux.concat(
                        oneBatch.expand(n -> n >= batch ? oneBatch : Mono.empty()),
                        oneOrphanBatch.expand(n -> n >= batch ? oneOrphanBatch : Mono.empty()))
                .reduce(0L, Long::sum);
        Mono<Long> flushIds = db.sql("DELETE FROM visit_flush WHERE flushed_at < :before")
                .bind("before", LocalDateTime.ofInstant(now.minus(FLUSH_IDS_KEPT), ZoneOffset.UTC))
                .fetch()
                .rowsUpdated();
        return rows.flatMap(n -> flushIds.thenReturn(n));
    }

    @Override
    public synchronized void start() {
        if (task != null) {
            return;
        }
        task = Flux.interval(properties.retentionInterval(), properties.retentionInterval(), timer)
                .onBackpressureDrop()
                .concatMap(
                        tick -> deleteOldRows()
                                .doOnNext(n -> {
                                    if (n > 0) {
                                        log.info("Deleted {} raw visits older than {}", n, properties.rawRetention());
                                    }
                                })
                                .onErrorResume(error -> {
                                    log.warn(
                                            "Could not delete old raw visits (will try again in {}): {}",
                                            properties.retentionInterval(),
                                            Causes.root(error).toString());
                                    return Mono.empty();
                                }),
                        1)
                .subscribe();
    }

    @Override
    public synchronized void stop() {
        if (task != null) {
            task.dispose();
            task = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return task != null;
    }
}
