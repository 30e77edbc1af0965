package dev.shortgate.visit;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.system.BlockingDrivers;
import io.r2dbc.spi.ConnectionFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * How many visits a link has had, from the per-day counters the visit writer upserts. Used to enforce
 * {@code maxVisits}. A count is reused for a second per link and pod, so a popular capped link costs about one
 * query a second rather than one per redirect. The count trails the redirects by the visits still
 * buffered (up to one batch or flush interval per pod) plus that second, which is how far a capped link may
 * overshoot its cap under concurrency.
 */
@Component
public class VisitCounts {

    private static final Duration FRESHNESS = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final DatabaseClient db;
    private final Cache<String, Long> counts;

    private final Scheduler scheduler;

    VisitCounts(DatabaseClient db, Ticker ticker, ConnectionFactory connectionFactory) {
        this.db = db;
        this.scheduler = BlockingDrivers.schedulerFor(connectionFactory);
        this.counts = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(FRESHNESS).ticker(ticker).build();
    }

    public Mono<Long> count(String code) {
        Long fresh = counts.getIfPresent(code);
        return fresh != null ? Mono.just(fresh) : query(code).doOnNext(count -> counts.put(code, count));
    }

    /** The count if one read in the last second is at hand, else {@code null}: never waits for a query. */
    public Long fresh(String code) {
        return counts.getIfPresent(code);
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
