package dev.shortgate.transfer.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import dev.shortgate.transfer.ImportRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.test.StepVerifier;

class CsvSourceTest {

    @TempDir
    Path folder;

    Path file(String text) throws IOException {
        Path file = folder.resolve("links.csv");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void shlinksColumnsAreReadWhateverTheirCaseSpacingAndDelimiter() throws IOException {
        CsvSource source = new CsvSource(file("\uFEFFLong URL;Tags;Domain;Short Code;Title\n"
                + "https://example.com/a;one| two ;;code-a;\"A; title\"\n"));
        StepVerifier.create(source.read(null))
                .assertNext(record -> {
                    assertThat(record.url()).isEqualTo("https://example.com/a");
                    assertThat(record.tags()).containsExactly("one", "two");
                    assertThat(record.domain()).isNull();
                    assertThat(record.code()).isEqualTo("code-a");
                    assertThat(record.title()).isEqualTo("A; title");
                    assertThat(record.ref()).isEqualTo("line 2");
                })
                .verifyComplete();
        StepVerifier.create(source.total()).expectNext(1L).verifyComplete();
    }

    @Test
    void shortgatesExportColumnsAreReadAndAnUnreadableRowIsReportedNotThrown() throws IOException {
        CsvSource source = new CsvSource(file("shortCode,longUrl,createdAt,validUntil,maxVisits,forwardQuery,"
                + "redirectStatus,disabled,visits\n"
                + "x1,https://example.com/1,2024-01-02T03:04:05Z,2030-01-01,5,true,308,true,12\n"
                + "x2,https://example.com/2,yesterday,,,,,,\n"
                + "x3,https://example.com/3,,,,,,,\n"));
        List<ImportRecord> records = source.read(null).collectList().block();
        assertThat(records).hasSize(3);
        ImportRecord first = records.get(0);
        assertThat(first.createdAt()).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
        assertThat(first.expiresAt()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
        assertThat(first.maxVisits()).isEqualTo(5L);
        assertThat(first.forwardQuery()).isTrue();
        assertThat(first.redirectStatus()).isEqualTo(308);
        assertThat(first.disabled()).isTrue();
        assertThat(first.clicks()).isEqualTo(12L);
        assertThat(records.get(1).unreadable()).contains("yesterday");
        assertThat(records.get(1).ref()).isEqualTo("line 3");
        assertThat(records.get(2).unreadable()).isNull();
    }

    @Test
    void aCheckpointSkipsTheRecordsUpToIt() throws IOException {
        CsvSource source = new CsvSource(file(
                "longUrl,shortCode\nhttps://example.com/1,c1\nhttps://example.com/2,c2\nhttps://example.com/3,c3\n"));
        StepVerifier.create(source.read("2").map(ImportRecord::code))
                .expectNext("c3")
                .verifyComplete();
    }
}
