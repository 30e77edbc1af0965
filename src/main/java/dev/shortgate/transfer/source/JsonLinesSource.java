package dev.shortgate.transfer.source;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.transfer.ImportRecord;
import dev.shortgate.transfer.ImportSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SynchronousSink;
import reactor.core.scheduler.Schedulers;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A JSON lines file, streamed: Shortgate's own {@code GET /api/v1/links/export?format=jsonl}, one link an object a
 * line ({@code shortCode}, {@code domain}, {@code longUrl}, {@code tags}, {@code title}, {@code createdAt},
 * {@code validUntil}, {@code maxVisits}, {@code crawlable}, {@code forwardQuery}, {@code redirectStatus},
 * {@code disabled}, {@code visits} as a click total, and {@code rules} as the stored rule set, an object or
 * {@code null}; {@code alias} is read by nobody: a kept code is always an alias). Blank lines are skipped. A record's
 * reference is its line; the checkpoint is the line number, and a re-read skips lines up to it. A line that is not
 * such an object, or holds a field of the wrong kind (a date that is no date, a number that is no number), is a
 * refused row.
 */
public final class JsonLinesSource implements ImportSource {

    private final Path file;
    private final JsonMapper json;

    public JsonLinesSource(Path file, JsonMapper json) {
        this.file = file;
        this.json = json;
    }

    @Override
    public Flux<ImportRecord> read(String checkpoint) {
        long after = checkpoint == null ? 0 : Long.parseLong(checkpoint);
        return Flux.using(
                        () -> Files.newBufferedReader(file, StandardCharsets.UTF_8),
                        reader -> Flux.generate(
                                () -> 0L,
                                (Long line, SynchronousSink<ImportRecord> sink) -> next(reader, line, after, sink)),
                        JsonLinesSource::close)
                .subscribeOn(Schedulers.boundedElastic());
    }

    /** Emits the next non-blank line's record after {@code after}, or completes; returns the line number reached. */
    private long next(BufferedReader reader, long line, long after, SynchronousSink<ImportRecord> sink) {
        try {
            for (String text; (text = reader.readLine()) != null; ) {
                line++;
                if (line > after && !text.isBlank()) {
                    sink.next(toRecord(text, line));
                    return line;
                }
            }
            sink.complete();
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Mono<Long> total() {
        return Mono.fromCallable(() -> {
                    try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
                        return lines.filter(line -> !line.isBlank()).count();
                    }
                })
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorResume(e -> Mono.empty());
    }

    @Override
    public boolean clicksAreTotals() {
        return true;
    }

    private static void close(BufferedReader reader) {
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ImportRecord toRecord(String text, long line) {
        String ref = "line " + line;
        String resumeFrom = Long.toString(line);
        JsonNode link;
        try {
            link = json.readTree(text);
        } catch (JacksonException e) {
            return ImportRecord.unreadable(ref, resumeFrom, "Unreadable line: not a JSON object.");
        }
        if (link == null || !link.isObject()) {
            return ImportRecord.unreadable(ref, resumeFrom, "Unreadable line: not a JSON object.");
        }
        try {
            Long status = number(link, "redirectStatus");
            JsonNode rules = link.get("rules");
            if (rules != null && !rules.isNull() && !rules.isObject()) {
                throw new IllegalArgumentException("rules must be an object or null.");
            }
            return new ImportRecord(
                    ref,
                    resumeFrom,
                    text(link, "shortCode"),
                    text(link, "longUrl"),
                    tags(link),
                    text(link, "title"),
                    CsvSource.instant(text(link, "createdAt")),
                    CsvSource.instant(text(link, "validUntil")),
                    number(link, "maxVisits"),
                    bool(link, "crawlable", false),
                    bool(link, "forwardQuery", false),
                    text(link, "domain"),
                    number(link, "visits"),
                    null,
                    status == null ? null : status.intValue(),
                    bool(link, "disabled", false),
                    rules == null || rules.isNull() ? null : json.writeValueAsString(rules));
        } catch (IllegalArgumentException e) {
            return ImportRecord.unreadable(ref, resumeFrom, e.getMessage());
        }
    }

    /** A string field, trimmed; {@code null} when absent, null or blank. */
    private static String text(JsonNode link, String field) {
        JsonNode value = link.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw new IllegalArgumentException(field + " must be a string.");
        }
        String text = value.stringValue().trim();
        return text.isEmpty() ? null : text;
    }

    private static Long number(JsonNode link, String field) {
        JsonNode value = link.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException("Unreadable number '" + value + "' in " + field + ".");
        }
        return value.longValue();
    }

    private static boolean bool(JsonNode link, String field, boolean otherwise) {
        JsonNode value = link.get(field);
        if (value == null || value.isNull()) {
            return otherwise;
        }
        if (!value.isBoolean()) {
            throw new IllegalArgumentException(field + " must be true or false.");
        }
        return value.booleanValue();
    }

    private static List<String> tags(JsonNode link) {
        JsonNode value = link.get("tags");
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw new IllegalArgumentException("tags must be an array of strings.");
        }
        List<String> tags = new ArrayList<>(value.size());
        for (JsonNode tag : value) {
            if (!tag.isString()) {
                throw new IllegalArgumentException("tags must be an array of strings.");
            }
            String name = tag.stringValue().trim();
            if (!name.isEmpty()) {
                tags.add(name);
            }
        }
        return tags;
    }
}
