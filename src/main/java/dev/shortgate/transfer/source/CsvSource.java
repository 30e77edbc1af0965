package dev.shortgate.transfer.source;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.shortgate.transfer.ImportRecord;
import dev.shortgate.transfer.ImportSource;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A CSV file, streamed: Shlink's import columns ({@code longUrl}, {@code tags} separated by {@code |},
 * {@code domain}, {@code shortCode}, {@code title}; header names compared without case, spaces, dashes or
 * underscores, as Shlink's importer does, with {@code ,} or {@code ;} between fields) and Shortgate's own export
 * format, which adds {@code createdAt}, {@code validUntil}, {@code maxVisits}, {@code crawlable},
 * {@code forwardQuery}, {@code redirectStatus}, {@code disabled}, {@code visits} (a click total) and {@code rules}
 * (the link's redirect rules as stored, JSON; empty for none). A record's reference is its line; the checkpoint is
 * the record number, and a re-read skips records up to it.
 */
public final class CsvSource implements ImportSource {

    private final Path file;

    public CsvSource(Path file) {
        this.file = file;
    }

    @Override
    public Flux<ImportRecord> read(String checkpoint) {
        long after = checkpoint == null ? 0 : Long.parseLong(checkpoint);
        return Flux.using(
                        this::open,
                        parser -> Flux.fromIterable(parser)
                                .skipWhile(record -> record.getRecordNumber() <= after)
                                .map(CsvSource::toRecord),
                        CsvSource::close)
                .subscribeOn(Schedulers.boundedElastic());
    }

    @Override
    public Mono<Long> total() {
        return Mono.fromCallable(() -> {
                    try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
                        return Math.max(0, lines.filter(line -> !line.isBlank()).count() - 1);
                    }
                })
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorResume(e -> Mono.empty());
    }

    @Override
    public boolean clicksAreTotals() {
        return true;
    }

    private CSVParser open() throws IOException {
        BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        reader.mark(64 * 1024);
        String header = reader.readLine();
        reader.reset();
        if (header == null) {
            header = "";
        }
        char delimiter = header.indexOf(';') >= 0 && header.indexOf(',') < 0 ? ';' : ',';
        return CSVFormat.DEFAULT
                .builder()
                .setDelimiter(delimiter)
                .setHeader()
                .setSkipHeaderRecord(true)
                .setIgnoreEmptyLines(true)
                .setIgnoreSurroundingSpaces(true)
                .setAllowMissingColumnNames(true)
                .get()
                .parse(stripBom(reader));
    }

    private static Reader stripBom(BufferedReader reader) throws IOException {
        reader.mark(1);
        if (reader.read() != '\uFEFF') {
            reader.reset();
        }
        return reader;
    }

    private static void close(CSVParser parser) {
        try {
            parser.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ImportRecord toRecord(CSVRecord row) {
        try {
            return read(row);
        } catch (IllegalArgumentException e) {
            return ImportRecord.unreadable(
                    "line " + (row.getRecordNumber() + 1), Long.toString(row.getRecordNumber()), e.getMessage());
        }
    }

    private static ImportRecord read(CSVRecord row) {
        Map<String, String> fields = new HashMap<>();
        row.toMap().forEach((name, value) -> {
            if (name != null) {
                fields.put(normalise(name), value == null || value.isBlank() ? null : value.trim());
            }
        });
        String tags = fields.get("tags");
        return new ImportRecord(
                "line " + (row.getRecordNumber() + 1),
                Long.toString(row.getRecordNumber()),
                fields.get("shortcode"),
                fields.get("longurl"),
                tags == null
                        ? List.of()
                        : Arrays.stream(tags.split("\\|"))
                                .map(String::trim)
                                .filter(tag -> !tag.isEmpty())
                                .toList(),
                fields.get("title"),
                instant(fields.get("createdat")),
                instant(fields.get("validuntil")),
                number(fields.get("maxvisits")),
                "true".equalsIgnoreCase(fields.get("crawlable")),
                "true".equalsIgnoreCase(fields.get("forwardquery")),
                fields.get("domain"),
                number(fields.get("visits")),
                null,
                number(fields.get("redirectstatus")) == null
                        ? null
                        : number(fields.get("redirectstatus")).intValue(),
                "true".equalsIgnoreCase(fields.get("disabled")),
                fields.get("rules"));
    }

    private static String normalise(String header) {
        return header.toLowerCase(Locale.ROOT).replaceAll("[\\s_-]", "");
    }

    /** ISO-8601 with an offset, a local date-time (UTC) or a date; an unreadable value is a refused row. */
    static Instant instant(String text) {
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (RuntimeException notOffset) {
            try {
                return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
            } catch (RuntimeException notLocal) {
                try {
                    return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
                } catch (RuntimeException notDate) {
                    throw new IllegalArgumentException("Unreadable date '" + text + "'.");
                }
            }
        }
    }

    private static Long number(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Unreadable number '" + text + "'.");
        }
    }
}
