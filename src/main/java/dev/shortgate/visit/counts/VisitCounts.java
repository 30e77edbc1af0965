package dev.shortgate.visit.counts;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.system.database.DatabaseDialect;
import org.springframework.modulith.NamedInterface;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * How many visits a link has had: the per-day counters in {@code link_stats} (every pod's flushed counts) plus the
 * visits this pod has counted and not yet written. Used to enforce {@code maxVisits}. The database part is reused
 * for a second per link and pod, so a popular capped link costs about one query a second rather than one per
 * redirect. A capped link can still overshoot its cap by what other pods counted and have not flushed yet (up to
 * one {@code counts-flush-interval} each) and by that second of reuse.
 */
@Component
@NamedInterface("counts")
public class VisitCounts {

    private static final Duration FRESHNESS = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final DatabaseClient db;
    private final Cache<String, Long> counts;

    private final Scheduler scheduler;
    private final VisitTally tally;

    VisitCounts(DatabaseClient db, Ticker ticker, DatabaseDialect dialect, VisitTally tally) {
        this.db = db;
        this.tally = tally;
        this.scheduler = dialect.queryScheduler();
        this.counts = Caffeine.newBuilder()
                .maximumSize(10_000)
                .expireAfterWrite(FRESHNESS)
                .ticker(ticker)
                .build();
    }

    /** Visits of this link so far, as far as this pod knows; the redirect path calls it for capped links. */
    public Mono<Long> count(String code) {
        Long fresh = counts.getIfPresent(code);
        Mono<Long> stored = fresh != null ? Mono.just(fresh) : query(code).doOnNext(count -> counts.put(code, count));
        return stored.map(count -> count + tally.unwritten(code));
    }

    /** As {@link #count}, if the stored count read in the last second is at hand, else {@code null}: never waits. */
    public Long fresh(String code) {
        Long stored = counts.getIfPresent(code);
        return stored == null ? null : stored + tally.unwritten(code);
    }

    private Mono<Long> query(String code) {
        return db.sql("SELECT COALESCE(SUM(visits), 0) AS n FROM link_stats WHERE code = :code")
                .bind("code", code)
                .map(row -> ((Number) row.get("n")).longValue())
                .one()
                .defaultIfEmpty(0L)
                .subscribeOn(scheduler)
                .timeout(TIMEOUT);
    }
}
