package dev.shortgate.transfer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One import's progress and result, as the command prints it and {@code GET /api/v1/imports/{id}} shows it. Its
 * problems (refused rows, conflicts) are listed up to {@link #MAX_LISTED}; the rest are only counted.
 */
public final class ImportJob {

    static final int MAX_LISTED = 200;

    /** A row that was not written as it came, with where it is in the source. */
    public record RowProblem(String ref, String status, String reason) {}

    private volatile String id;
    private final String from;
    private final boolean dryRun;
    private final Instant startedAt;
    private volatile String status = "running";
    private volatile Long total;
    private volatile String checkpoint;
    private volatile String error;
    private volatile Instant finishedAt;
    private volatile boolean clicksAreTotals;
    private final AtomicLong read = new AtomicLong();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong unchanged = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    private final AtomicLong newCodes = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong seededTotals = new AtomicLong();
    private final AtomicLong visits = new AtomicLong();
    private final List<RowProblem> problems = new ArrayList<>();

    ImportJob(String id, String from, boolean dryRun, Instant startedAt) {
        this.id = id;
        this.from = from;
        this.dryRun = dryRun;
        this.startedAt = startedAt;
    }

    public String id() {
        return id;
    }

    void resumes(String earlierId, String fromCheckpoint) {
        this.id = earlierId;
        this.checkpoint = fromCheckpoint;
    }

    public String status() {
        return status;
    }

    public boolean dryRun() {
        return dryRun;
    }

    public long read() {
        return read.get();
    }

    public Long total() {
        return total;
    }

    public String error() {
        return error;
    }

    public long created() {
        return created.get();
    }

    public long refused() {
        return refused.get();
    }

    public long unchanged() {
        return unchanged.get();
    }

    public long conflicts() {
        return conflicts.get();
    }

    public long newCodes() {
        return newCodes.get();
    }

    String checkpoint() {
        return checkpoint;
    }

    void total(Long total) {
        this.total = total;
    }

    void clicksAreTotals(boolean totals) {
        this.clicksAreTotals = totals;
    }

    void checkpoint(String checkpoint) {
        this.checkpoint = checkpoint;
    }

    void counted(long rows) {
        read.addAndGet(rows);
    }

    void created(long n) {
        created.addAndGet(n);
    }

    void unchanged(long n) {
        unchanged.addAndGet(n);
    }

    void seeded(long n) {
        seededTotals.addAndGet(n);
    }

    void visits(long n) {
        visits.addAndGet(n);
    }

    void problem(String ref, String status, String reason) {
        switch (status) {
            case "conflict" -> conflicts.incrementAndGet();
            case "new-code" -> newCodes.incrementAndGet();
            default -> refused.incrementAndGet();
        }
        synchronized (problems) {
            if (problems.size() < MAX_LISTED) {
                problems.add(new RowProblem(ref, status, reason));
            }
        }
    }

    void done(Instant at) {
        finishedAt = at;
        status = "done";
    }

    void failed(String why, Instant at) {
        error = why;
        finishedAt = at;
        status = "failed";
    }

    /** The job as the API shows it and the job table keeps it. */
    public Map<String, Object> view() {
        Map<String, Object> progress = new LinkedHashMap<>();
        progress.put("read", read.get());
        progress.put("total", total);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("created", created.get());
        result.put("unchanged", unchanged.get());
        result.put("conflicts", conflicts.get());
        result.put("newCodes", newCodes.get());
        result.put("refused", refused.get());
        result.put("visits", visits.get());
        result.put("seededClickTotals", seededTotals.get());
        if (clicksAreTotals && seededTotals.get() > 0) {
            result.put(
                    "note",
                    "This source gives only a click total per link: each total was counted on the link's creation "
                            + "day, with no breakdown by country, browser or referrer.");
        }
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", id);
        view.put("from", from);
        view.put("status", status);
        view.put("dryRun", dryRun);
        view.put("progress", progress);
        view.put("result", result);
        synchronized (problems) {
            view.put("problems", List.copyOf(problems));
        }
        view.put("checkpoint", checkpoint);
        view.put("startedAt", startedAt.toString());
        view.put("finishedAt", finishedAt == null ? null : finishedAt.toString());
        view.put("error", error);
        return view;
    }
}
