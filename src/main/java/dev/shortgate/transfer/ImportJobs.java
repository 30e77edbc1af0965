package dev.shortgate.transfer;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import dev.shortgate.link.store.LinkRows;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The job table: a row per import with its checkpoint, written after each batch. A job of a source whose last job
 * did not finish takes over that job (its id and checkpoint), which is how an interrupted import resumes. Dry runs
 * are never written.
 */
@Repository
class ImportJobs {

    private final DatabaseClient db;
    private final JsonMapper json;
    private final Clock clock;

    ImportJobs(DatabaseClient db, JsonMapper json, Clock clock) {
        this.db = db;
        this.json = json;
        this.clock = clock;
    }

    /** Starts the job, or resumes the unfinished one of the same source (the job takes its id and checkpoint). */
    Mono<Void> begin(ImportJob job, String sourceKey, String from) {
        Instant now = clock.instant();
        return db.sql("SELECT id, checkpoint FROM import_job WHERE source_key = :key AND status <> 'done' "
                        + "ORDER BY started_at DESC LIMIT 1")
                .bind("key", sourceKey)
                .map(row -> new String[] {row.get("id", String.class), row.get("checkpoint", String.class)})
                .one()
                .flatMap(earlier -> {
                    job.resumes(earlier[0], earlier[1]);
                    return save(job).thenReturn(true);
                })
                .switchIfEmpty(Mono.defer(() -> db.sql("INSERT INTO import_job (id, source_key, source, status, "
                                + "report, started_at, updated_at) VALUES (:id, :key, :source, 'running', :report, "
                                + ":now, :now)")
                        .bind("id", job.id())
                        .bind("key", sourceKey)
                        .bind("source", from)
                        .bind("report", report(job))
                        .bind("now", LinkRows.toDb(now))
                        .fetch()
                        .rowsUpdated()
                        .thenReturn(true)))
                .then();
    }

    /** Writes the job's status, checkpoint and report. */
    Mono<Void> save(ImportJob job) {
        var spec = db.sql("UPDATE import_job SET status = :status, checkpoint = :checkpoint, report = :report, "
                        + "updated_at = :now WHERE id = :id")
                .bind("id", job.id())
                .bind("status", job.status())
                .bind("report", report(job))
                .bind("now", LinkRows.toDb(clock.instant()));
        spec = job.checkpoint() == null
                ? spec.bindNull("checkpoint", String.class)
                : spec.bind("checkpoint", job.checkpoint());
        return spec.fetch().rowsUpdated().then();
    }

    /** A job as last saved, for a pod that is not running it. */
    @SuppressWarnings("unchecked")
    Mono<Map<String, Object>> find(String id) {
        return db.sql("SELECT report FROM import_job WHERE id = :id")
                .bind("id", id)
                .map(row -> row.get("report", String.class))
                .one()
                .map(report -> (Map<String, Object>) json.readValue(report, Map.class));
    }

    private String report(ImportJob job) {
        return json.writeValueAsString(job.view());
    }
}
