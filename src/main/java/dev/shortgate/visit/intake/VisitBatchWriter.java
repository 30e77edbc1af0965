package dev.shortgate.visit.intake;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import dev.shortgate.visit.MultiRowSql;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.Visit;
import dev.shortgate.visit.Visitor;
import dev.shortgate.visit.counts.VisitCountFlusher;
import dev.shortgate.visit.enrich.VisitEnricher;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Writes one batch of raw visit rows: enrich it and build its SQL on a worker thread, then insert the rows as
 * multi-row {@code INSERT IGNORE}s in one transaction. Visits of links go to {@code visit}, orphan visits (the same
 * batches, the same buffer) to {@code orphan_visit}. Counts are not written here: the {@link VisitCountFlusher}
 * writes them from the pod's in-memory tally, whether or not a raw row could be kept.
 *
 * <p>A retry is safe: the transaction leaves nothing behind when it fails, and when its commit went through but
 * the acknowledgement was lost, {@code INSERT IGNORE} skips the rows already there (same visit ids) instead of
 * failing on them.
 */
public final class VisitBatchWriter implements VisitRecorder.BatchWriter {

    /**
     * Rows per INSERT statement: about 225 kB of SQL, well under every driver's limits. 500 rather than 1,000 halves
     * the text a batch holds while a statement runs; each batch of 2,000 takes four round trips instead of two.
     */
    static final int ROWS_PER_INSERT = 500;

    private static final String INSERT_VISITS = "INSERT IGNORE INTO visit (id, code, visited_at, client_id, ip, "
            + "user_agent, referer, country, city, browser, browser_version, os, device_class, bot, redirect_url) VALUES ";
    private static final String INSERT_ORPHANS = "INSERT IGNORE INTO orphan_visit (id, type, visited_path, visited_at, "
            + "client_id, ip, user_agent, referer, country, city, browser, browser_version, os, device_class, bot, "
            + "domain_id) VALUES ";

    /** An orphan visit's path and query are cut to this many characters (Shlink's bound of a visited URL). */
    static final int VISITED_PATH_MAX_LENGTH = 2048;

    private final MultiRowSql sql;
    private final TransactionalOperator transactions;
    private final VisitEnricher enricher;
    private final Scheduler workers;
    private final Mono<byte[]> clientIdKey;

    /** @param clientIdKey key of the client-id HMAC; a batch waits for it (and is retried if it cannot be read) */
    public VisitBatchWriter(
            MultiRowSql sql,
            TransactionalOperator transactions,
            VisitEnricher enricher,
            Scheduler workers,
            Mono<byte[]> clientIdKey) {
        this.sql = sql;
        this.transactions = transactions;
        this.enricher = enricher;
        this.workers = workers;
        this.clientIdKey = clientIdKey;
    }

    /**
     * Enriches the batch on a worker, then builds each INSERT on a worker only when the one before it has run: the
     * SQL text of a batch is about twice its rows' bytes (every value in hex), and a young collection that finds a
     * whole batch's statements waiting copies them all (docs/performance.md, "The paced tail").
     */
    @Override
    public Mono<Void> write(List<RawVisit> batch) {
        return clientIdKey
                .flatMap(key -> Mono.fromCallable(() -> statements(batch, key)).subscribeOn(workers))
                .flatMap(statements -> sql.executeAll(Flux.fromIterable(statements)
                                .concatMap(next -> Mono.fromCallable(next::get).subscribeOn(workers), 0))
                        .as(transactions::transactional));
    }

    /** The batch's INSERTs, each built when asked for: visits of links, then orphan visits. */
    private List<Supplier<MultiRowSql.Sql>> statements(List<RawVisit> batch, byte[] key) {
        List<RawVisit> visits = new ArrayList<>(batch.size());
        List<RawVisit> orphans = new ArrayList<>();
        for (RawVisit raw : batch) {
            (raw.orphan() == null ? visits : orphans).add(raw);
        }
        List<Supplier<MultiRowSql.Sql>> statements = statements(enricher.enrich(visits, key));
        if (!orphans.isEmpty()) {
            List<Visit> enriched = enricher.enrich(orphans, key);
            for (int from = 0; from < orphans.size(); from += ROWS_PER_INSERT) {
                int to = Math.min(orphans.size(), from + ROWS_PER_INSERT);
                List<RawVisit> raws = orphans.subList(from, to);
                List<Visit> rows = enriched.subList(from, to);
                statements.add(() -> insertOrphans(raws, rows));
            }
        }
        return statements;
    }

    /** The INSERTs, in chunks of {@link #ROWS_PER_INSERT}, each built when asked for. */
    List<Supplier<MultiRowSql.Sql>> statements(List<Visit> rows) {
        List<Supplier<MultiRowSql.Sql>> statements = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += ROWS_PER_INSERT) {
            List<Visit> chunk = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_INSERT));
            statements.add(() -> insertVisits(chunk));
        }
        return statements;
    }

    private MultiRowSql.Sql insertOrphans(List<RawVisit> raws, List<Visit> rows) {
        List<Object[]> values = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            RawVisit raw = raws.get(i);
            Visit v = rows.get(i);
            values.add(values(v, raw.domainId(), v.id(), raw.orphan().id, visitedPath(raw.code(), raw.query())));
        }
        return sql.multiRow(INSERT_ORPHANS, values, "");
    }

    /** {@code /path?query}, cut to {@link #VISITED_PATH_MAX_LENGTH}. */
    static String visitedPath(String path, String query) {
        String visited = query == null ? "/" + path : "/" + path + "?" + query;
        return VisitRecorder.truncate(visited, VISITED_PATH_MAX_LENGTH);
    }

    private MultiRowSql.Sql insertVisits(List<Visit> rows) {
        List<Object[]> values = new ArrayList<>(rows.size());
        for (Visit v : rows) {
            values.add(values(v, v.redirectUrl(), v.id(), v.code()));
        }
        return sql.multiRow(INSERT_VISITS, values, "");
    }

    /**
     * A row's values in the order of both INSERTs, in one array: its {@code key} columns, those every raw row has,
     * then its table's {@code last} column.
     */
    private static Object[] values(Visit v, Object last, Object... key) {
        Visitor who = v.visitor();
        Object[] row = Arrays.copyOf(key, key.length + 13);
        int i = key.length;
        row[i++] = LocalDateTime.ofInstant(v.visitedAt(), ZoneOffset.UTC);
        row[i++] = v.clientId();
        row[i++] = who.ip();
        row[i++] = who.userAgent();
        row[i++] = who.referer();
        row[i++] = who.country();
        row[i++] = who.city();
        row[i++] = who.browser();
        row[i++] = who.browserVersion();
        row[i++] = who.os();
        row[i++] = who.deviceClass();
        row[i++] = who.bot();
        row[i] = last;
        return row;
    }
}
