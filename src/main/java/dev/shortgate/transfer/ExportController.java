package dev.shortgate.transfer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.Domains;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.ApiScope;
import dev.shortgate.system.problem.Problem;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;

/**
 * Streamed exports, admin keys only: {@code GET /api/v1/links/export?format=csv|jsonl} (every live link, in the
 * import format; filters {@code tag}, {@code since}, {@code until} on the creation date, {@code domain}: a host of ours or
 * {@code DEFAULT}) and
 * {@code GET /api/v1/visits/export} (the raw visits kept, as JSON lines; {@code since}, {@code until}).
 */
@RestController
class ExportController {

    static final MediaType CSV = MediaType.parseMediaType("text/csv;charset=UTF-8");
    static final MediaType JSON_LINES = MediaType.parseMediaType("application/jsonl;charset=UTF-8");

    private final LinkExport export;
    private final Domains domains;

    ExportController(LinkExport export, Domains domains) {
        this.export = export;
        this.domains = domains;
    }

    @GetMapping("/api/v1/links/export")
    @Operation(summary = "Stream every live link as CSV (the import format) or JSON lines")
    ResponseEntity<Flux<DataBuffer>> links(
            @RequestParam(defaultValue = "csv") String format,
            @RequestParam(required = false) String tag,
            @RequestParam(required = false) String since,
            @RequestParam(required = false) String until,
            @RequestParam(required = false) String domain,
            ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        boolean csv = "csv".equals(format);
        if (!csv && !"jsonl".equals(format)) {
            throw Problem.INVALID_REQUEST
                    .toException("format must be csv or jsonl.")
                    .with("field", "format");
        }
        Instant from = instant("since", since);
        Instant to = instant("until", until);
        Flux<String> body;
        if (domain == null || domain.isBlank()) {
            LinkExport.Filter filter = new LinkExport.Filter(tag, from, to);
            body = csv ? export.csv(filter) : export.jsonLines(filter);
        } else {
            Domain found = "DEFAULT".equals(domain)
                    ? domains.defaultDomain()
                    : domains.find(domain).orElse(null);
            if (found == null) {
                body = csv ? Flux.just(LinkExport.header()) : Flux.empty(); // not one of ours: it has no links
            } else {
                LinkExport.Filter filter = new LinkExport.Filter(tag, from, to, found.id());
                body = csv ? export.csv(filter) : export.jsonLines(filter);
            }
        }
        return ResponseEntity.ok()
                .contentType(csv ? CSV : JSON_LINES)
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=links." + (csv ? "csv" : "jsonl"))
                .body(buffers(body, exchange.getResponse().bufferFactory()));
    }

    @GetMapping("/api/v1/visits/export")
    @Operation(summary = "Stream the raw visits kept, as JSON lines")
    ResponseEntity<Flux<DataBuffer>> visits(
            @RequestParam(required = false) String since,
            @RequestParam(required = false) String until,
            ServerWebExchange exchange) {
        ApiPrincipal.of(exchange).require(ApiScope.ADMIN);
        return ResponseEntity.ok()
                .contentType(JSON_LINES)
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=visits.jsonl")
                .body(buffers(
                        export.visits(instant("since", since), instant("until", until)),
                        exchange.getResponse().bufferFactory()));
    }

    private static Flux<DataBuffer> buffers(Flux<String> chunks, DataBufferFactory factory) {
        return chunks.map(chunk -> factory.wrap(chunk.getBytes(StandardCharsets.UTF_8)));
    }

    private static Instant instant(String field, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw Problem.INVALID_REQUEST
                    .toException(field + " must be an ISO-8601 instant, such as 2026-01-31T00:00:00Z.")
                    .with("field", field);
        }
    }
}
