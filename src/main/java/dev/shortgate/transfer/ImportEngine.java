package dev.shortgate.transfer;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.LinkRules;
import dev.shortgate.link.create.LinkImports;
import dev.shortgate.link.create.LinkImports.Conflict;
import dev.shortgate.link.create.LinkImports.Incoming;
import dev.shortgate.link.create.LinkImports.Outcome;
import dev.shortgate.link.store.LinkRows;
import dev.shortgate.rules.RuleCheck;
import dev.shortgate.system.problem.ProblemException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs an import: reads the source from the job's checkpoint, writes it in batches of
 * {@code shortgate.transfer.batch-size} ({@code writers} at once, checkpointed in source order), and counts what
 * happened to every record. Memory holds the batches in flight and a source page, whatever the source's size.
 */
@Component
class ImportEngine {

    private final LinkImports imports;
    private final TransferMeta meta;
    private final ImportJobs jobs;
    private final TransferProperties properties;
    private final Clock clock;
    private final Domains domains;
    private final RuleCheck ruleCheck;
    private final MeterRegistry registry;

    ImportEngine(
            LinkImports imports,
            TransferMeta meta,
            ImportJobs jobs,
            TransferProperties properties,
            Domains domains,
            RuleCheck ruleCheck,
            Clock clock,
            MeterRegistry registry) {
        this.imports = imports;
        this.meta = meta;
        this.jobs = jobs;
        this.properties = properties;
        this.clock = clock;
        this.domains = domains;
        this.ruleCheck = ruleCheck;
        this.registry = registry;
    }

    /**
     * Counted per outcome, each registered at its first link (the registry hands back the meter it already has): a
     * pod that never imports exports no series.
     */
    private void count(Options options, String outcome) {
        if (!options.dryRun()) {
            Counter.builder("shortgate.imports.links")
                    .description("Links read by imports, by what became of them (dry runs not counted)")
                    .tag("outcome", outcome)
                    .register(registry)
                    .increment();
        }
    }

    /** What to import and how. */
    record Options(String from, String sourceKey, boolean dryRun, boolean withVisits, Conflict onConflict) {}

    /** A new job (not started) for these options. */
    ImportJob newJob(Options options) {
        return new ImportJob(java.util.UUID.randomUUID().toString(), options.from(), options.dryRun(), clock.instant());
    }

    /**
     * Registers the job, or takes over the unfinished job of the same source (then the job gets that job's id and
     * checkpoint); a dry run is never registered.
     */
    Mono<ImportJob> begin(ImportJob job, Options options) {
        return options.dryRun()
                ? Mono.just(job)
                : jobs.begin(job, options.sourceKey(), options.from()).then(Mono.just(job));
    }

    /** Runs a begun job to its end; it completes with the job done or failed (never with an error). */
    Mono<ImportJob> run(ImportJob job, ImportSource source, Options options) {
        job.clicksAreTotals(source.clicksAreTotals());
        String from = job.checkpoint();
        return source.total()
                .doOnNext(job::total)
                .onErrorResume(e -> Mono.empty())
                .then(source.read(from)
                        .buffer(properties.batchSize())
                        .flatMapSequential(
                                // a batch is idempotent: one that failed on the way (a pool timeout, a lost
                                // connection) is written again, as a resumed job would
                                batch -> Mono.defer(() -> write(batch, source, options, job))
                                        .retryWhen(reactor.util.retry.Retry.backoff(3, java.time.Duration.ofSeconds(1))
                                                .filter(e ->
                                                        !(e instanceof dev.shortgate.system.problem.ProblemException))
                                                .onRetryExhaustedThrow((spec, signal) -> signal.failure()))
                                        .thenReturn(batch),
                                properties.writers(),
                                1)
                        .concatMap(batch -> {
                            job.checkpoint(batch.get(batch.size() - 1).resumeFrom());
                            return options.dryRun() ? Mono.<Void>empty() : jobs.save(job);
                        })
                        .then())
                .then(Mono.defer(() -> {
                    job.done(clock.instant());
                    return options.dryRun() ? Mono.<Void>empty() : jobs.save(job);
                }))
                .onErrorResume(e -> {
                    job.failed(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), clock.instant());
                    return options.dryRun() ? Mono.empty() : jobs.save(job).onErrorResume(again -> Mono.empty());
                })
                .thenReturn(job);
    }

    private Mono<Void> write(List<ImportRecord> batch, ImportSource source, Options options, ImportJob job) {
        // What the batch did is counted once it is written: a batch written again after a failure counts once
        List<Runnable> account = new ArrayList<>();
        List<Incoming> incoming = new ArrayList<>();
        List<ImportRecord> accepted = new ArrayList<>();
        for (ImportRecord record : batch) {
            Target target = target(record);
            String unfit = refusal(record);
            String refusal = unfit != null ? unfit : target.refusal();
            LinkRules rules = null;
            if (refusal == null) {
                try {
                    rules = rules(record.rulesJson());
                } catch (IllegalArgumentException e) {
                    refusal = e.getMessage();
                }
            }
            if (refusal != null) {
                String why = refusal;
                account.add(() -> {
                    job.problem(record.ref(), "refused", why);
                    count(options, "refused");
                });
                continue;
            }
            accepted.add(record);
            incoming.add(new Incoming(
                    record.code() == null || record.code().isEmpty()
                            ? record.code()
                            : DomainCodes.key(target.domain(), record.code()),
                    record.url(),
                    record.createdAt(),
                    record.expiresAt(),
                    record.maxVisits(),
                    record.forwardQuery(),
                    record.redirectStatus(),
                    record.disabled(),
                    rules));
        }
        account.add(() -> job.counted(batch.size() - accepted.size()));
        return imports.write(incoming, options.onConflict(), options.dryRun())
                .flatMap(outcomes -> {
                    List<TransferMeta.Written> written = new ArrayList<>();
                    for (Outcome outcome : outcomes) {
                        ImportRecord record = accepted.get(outcome.index());
                        String name =
                                switch (outcome.status()) {
                                    case CREATED -> "created";
                                    case UNCHANGED -> "unchanged";
                                    case CONFLICT -> "conflict";
                                    case NEW_CODE -> "new-code";
                                    case REFUSED -> "refused";
                                };
                        account.add(() -> count(options, name));
                        account.add(() -> {
                            switch (outcome.status()) {
                                case CREATED -> job.created(1);
                                case UNCHANGED -> job.unchanged(1);
                                case CONFLICT -> job.problem(record.ref(), "conflict", outcome.reason());
                                case NEW_CODE ->
                                    job.problem(
                                            record.ref(),
                                            "new-code",
                                            outcome.reason()
                                                    + (outcome.link() == null
                                                            ? ""
                                                            : " New code: "
                                                                    + outcome.link()
                                                                            .code()));
                                case REFUSED -> job.problem(record.ref(), "refused", outcome.reason());
                            }
                        });
                        if (outcome.link() != null && !options.dryRun()) {
                            written.add(new TransferMeta.Written(
                                    outcome.link().code(),
                                    record,
                                    outcome.link().createdAt()));
                        }
                    }
                    account.add(() -> job.counted(accepted.size()));
                    if (options.dryRun()) {
                        return Mono.empty();
                    }
                    account.add(() -> job.seeded(TransferMeta.seeded(written)));
                    Mono<Void> visits = !options.withVisits()
                            ? Mono.empty()
                            : Flux.fromIterable(written)
                                    .flatMap(link -> meta.visits(link.code(), source.visits(link.record())), 4)
                                    .reduce(0L, Long::sum)
                                    .doOnNext(read -> account.add(() -> job.visits(read)))
                                    .then();
                    return meta.write(written).then(visits);
                })
                .then(Mono.fromRunnable(() -> account.forEach(Runnable::run)));
    }

    /**
     * A record's redirect rules read and checked as {@code PUT /api/v1/links/{code}/rules} checks them
     * ({@link RuleCheck}: conditions, splits, every target through the URL policy), or {@code null} for none.
     *
     * @throws IllegalArgumentException why they cannot be imported, naming the faulty field
     */
    private LinkRules rules(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        LinkRules read;
        try {
            read = LinkRows.readRules(json);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Unreadable rules: not a rule set as Shortgate exports it.");
        }
        try {
            LinkRules checked = ruleCheck.check(read);
            return checked.isEmpty() ? null : checked;
        } catch (ProblemException e) {
            var properties = e.getBody().getProperties();
            Object field = properties == null ? null : properties.get("field");
            throw new IllegalArgumentException("Invalid rules" + (field == null ? "" : " (" + field + ")") + ": "
                    + e.getBody().getDetail());
        }
    }

    /** Why a record cannot be imported before the link rules are even asked, or {@code null}. */
    private String refusal(ImportRecord record) {
        if (record.unreadable() != null) {
            return record.unreadable();
        }
        if (record.url() == null) {
            return "The row has no long URL.";
        }
        return null;
    }

    /**
     * The registered domain a record goes to ({@link Domains#find}; the default one when it names none), or
     * why it cannot: a domain not added here, or a link of another domain without a code (codes are generated on
     * the default domain only).
     */
    private Target target(ImportRecord record) {
        String domain = record.domain();
        if (domain == null || domain.isBlank() || "DEFAULT".equals(domain)) {
            return new Target(domains.defaultDomain(), null);
        }
        String host = domain.replaceFirst("^(?i)https?://", "").replaceFirst("[:/].*$", "");
        Domain found = domains.find(host).orElse(null);
        if (found == null) {
            return new Target(
                    null,
                    "The domain '" + domain + "' is not one of this gateway's domains; an admin adds it with POST"
                            + " /api/v1/domains.");
        }
        if (!found.isDefault() && (record.code() == null || record.code().isEmpty())) {
            return new Target(
                    null,
                    "A link of the domain '" + domain + "' needs its short code: codes are generated on the default"
                            + " domain only.");
        }
        return new Target(found, null);
    }

    /** The domain a record goes to, or why it cannot go anywhere. */
    private record Target(Domain domain, String refusal) {}
}
