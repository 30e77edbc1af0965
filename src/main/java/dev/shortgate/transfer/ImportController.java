package dev.shortgate.transfer;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.shortgate.link.create.LinkImports.Conflict;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.transfer.source.Sources;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Import jobs, for an import inside a pod: {@code POST /api/v1/imports} starts one (a JSON body naming a source, a
 * CSV body, or a JSON lines body: Shortgate's own export) and answers 202 with its {@code Location}; {@code GET} there shows its status ({@code running},
 * {@code done}, {@code failed}), progress and result. Admin keys only. A job runs in the pod that took it; its
 * checkpoint is in the database, so posting the same source again after a restart resumes it.
 */
@RestController
@RequestMapping(path = "/api/v1/imports", produces = MediaType.APPLICATION_JSON_VALUE)
class ImportController {

    /** Jobs this pod ran, newest kept (dry runs are only here). */
    private static final int KEPT = 100;

    private final ImportEngine engine;
    private final ImportJobs jobs;
    private final Sources sources;
    private final TransferProperties properties;
    private final Map<String, ImportJob> recent = java.util.Collections.synchronizedMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ImportJob> eldest) {
            return size() > KEPT;
        }
    });
    private final Map<String, ImportJob> runningBySource = new ConcurrentHashMap<>();

    ImportController(ImportEngine engine, ImportJobs jobs, Sources sources, TransferProperties properties) {
        this.engine = engine;
        this.jobs = jobs;
        this.sources = sources;
        this.properties = properties;
    }

    /**
     * A JSON import request.
     *
     * @param from       shlink, yourls, kutt or bitly
     * @param url        the source's address
     * @param apiKey     the source's credential, or none for {@code shortgate.transfer.api-key}
     * @param withVisits bring each link's visits too (Shlink)
     * @param dryRun     report what would happen, writing nothing
     * @param onConflict skip or new-code, or none for {@code shortgate.transfer.on-conflict}
     */
    record ImportRequest(
            String from, String url, String apiKey, Boolean withVisits, Boolean dryRun, String onConflict) {}

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Start an import from Shlink, YOURLS, Kutt or Bitly")
    @ApiResponse(responseCode = "202", description = "Started (or resumed); Location names the job")
    Mono<ResponseEntity<Map<String, Object>>> startFromApi(
            @RequestBody ImportRequest request, ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        if (request.from() == null
                || "csv".equalsIgnoreCase(request.from())
                || "jsonl".equalsIgnoreCase(request.from())) {
            throw Problem.INVALID_REQUEST
                    .toException("from must be shlink, yourls, kutt or bitly; post a CSV body as text/csv, or JSON"
                            + " lines as application/jsonl.")
                    .with("field", "from");
        }
        ImportSource source = source(request.from(), null, request.url(), request.apiKey());
        return start(
                source,
                request.from(),
                ImportCommand.sourceKey(request.from().toLowerCase(java.util.Locale.ROOT), null, request.url()),
                Boolean.TRUE.equals(request.dryRun()),
                Boolean.TRUE.equals(request.withVisits()),
                request.onConflict(),
                null);
    }

    @PostMapping(consumes = {"text/csv", MediaType.TEXT_PLAIN_VALUE})
    @Operation(
            summary =
                    "Start an import of a CSV body (Shlink's import columns or Shortgate's export, redirect rules included)")
    @ApiResponse(responseCode = "202", description = "Started (or resumed); Location names the job")
    Mono<ResponseEntity<Map<String, Object>>> startFromCsv(
            @RequestBody Flux<DataBuffer> body,
            @RequestParam(required = false) Boolean dryRun,
            @RequestParam(required = false) String onConflict,
            ServerWebExchange exchange) {
        return startFromFile("csv", body, dryRun, onConflict, exchange);
    }

    @PostMapping(consumes = {"application/jsonl", "application/x-ndjson"})
    @Operation(
            summary = "Start an import of a JSON lines body (Shortgate's export with format=jsonl, redirect rules"
                    + " included)")
    @ApiResponse(responseCode = "202", description = "Started (or resumed); Location names the job")
    Mono<ResponseEntity<Map<String, Object>>> startFromJsonLines(
            @RequestBody Flux<DataBuffer> body,
            @RequestParam(required = false) Boolean dryRun,
            @RequestParam(required = false) String onConflict,
            ServerWebExchange exchange) {
        return startFromFile("jsonl", body, dryRun, onConflict, exchange);
    }

    /** Stores the body in a temporary file (deleted when the job ends) and imports it as a {@code from} file. */
    private Mono<ResponseEntity<Map<String, Object>>> startFromFile(
            String from, Flux<DataBuffer> body, Boolean dryRun, String onConflict, ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        return Mono.fromCallable(() -> Files.createTempFile("shortgate-import-", "." + from))
                .subscribeOn(Schedulers.boundedElastic())
                .flatMap(file -> DataBufferUtils.write(body, file)
                        .then(Mono.fromCallable(() -> digest(file)).subscribeOn(Schedulers.boundedElastic()))
                        .flatMap(hash -> start(
                                source(from, file, null, null),
                                from,
                                ImportCommand.sourceKey(from, "body:" + hash, null),
                                Boolean.TRUE.equals(dryRun),
                                false,
                                onConflict,
                                file))
                        .doOnError(e -> delete(file)));
    }

    @GetMapping("/{id}")
    @Operation(summary = "An import job's status, progress and result")
    Mono<Map<String, Object>> get(@PathVariable String id, ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        ImportJob job = recent.get(id);
        if (job != null) {
            return Mono.just(job.view());
        }
        return jobs.find(id)
                .switchIfEmpty(Mono.error(() -> Problem.NOT_FOUND.toException("No import job " + id + ".")));
    }

    private ImportSource source(String from, Path file, String url, String apiKey) {
        try {
            return sources.source(from, file, url, apiKey);
        } catch (IllegalArgumentException e) {
            throw Problem.INVALID_REQUEST.toException(e.getMessage().replace("--", ""));
        }
    }

    private Mono<ResponseEntity<Map<String, Object>>> start(
            ImportSource source,
            String from,
            String sourceKey,
            boolean dryRun,
            boolean withVisits,
            String onConflict,
            Path temporary) {
        String conflict = onConflict == null ? properties.onConflict() : onConflict;
        if (!"skip".equals(conflict) && !"new-code".equals(conflict)) {
            throw Problem.INVALID_REQUEST
                    .toException("onConflict must be skip or new-code.")
                    .with("field", "onConflict");
        }
        ImportJob already = dryRun ? null : runningBySource.get(sourceKey);
        if (already != null) { // this source is being imported here: that job is the answer
            if (temporary != null) {
                delete(temporary);
            }
            return Mono.just(accepted(already));
        }
        ImportEngine.Options options = new ImportEngine.Options(
                from.toLowerCase(java.util.Locale.ROOT),
                sourceKey,
                dryRun,
                withVisits,
                "new-code".equals(conflict) ? Conflict.NEW_CODE : Conflict.SKIP);
        return engine.begin(engine.newJob(options), options).map(job -> {
            recent.put(job.id(), job);
            if (!dryRun) {
                runningBySource.put(sourceKey, job);
            }
            // The job outlives the request; it is the only thing this subscribe runs
            engine.run(job, source, options)
                    .doFinally(signal -> {
                        runningBySource.remove(sourceKey, job);
                        if (temporary != null) {
                            delete(temporary);
                        }
                    })
                    .subscribe();
            return accepted(job);
        });
    }

    private static ResponseEntity<Map<String, Object>> accepted(ImportJob job) {
        return ResponseEntity.accepted()
                .location(URI.create("/api/v1/imports/" + job.id()))
                .body(job.view());
    }

    private static String digest(Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            var digest = java.security.MessageDigest.getInstance("SHA-256");
            byte[] chunk = new byte[64 * 1024];
            for (int n; (n = in.read(chunk)) > 0; ) {
                digest.update(chunk, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a temporary file left behind is harmless
        }
    }
}
