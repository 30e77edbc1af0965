package dev.shortgate.transfer.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.test.StepVerifier;
import tools.jackson.databind.json.JsonMapper;

class JsonLinesSourceTest {

    /** A line as {@code GET /api/v1/links/export?format=jsonl} writes it. */
    static final String EXPORTED =
            "{\"shortCode\":\"code-a\",\"domain\":\"two.test\",\"longUrl\":\"https://example.com/a\","
                    + "\"tags\":[\"news\",\"docs\"],\"title\":\"A, title\",\"createdAt\":\"2024-01-02T03:04:05.678Z\","
                    + "\"validUntil\":\"2030-01-01T00:00:00Z\",\"maxVisits\":9,\"crawlable\":true,\"forwardQuery\":true,"
                    + "\"redirectStatus\":308,\"disabled\":true,\"alias\":true,\"visits\":12,"
                    + "\"rules\":{\"rules\":[{\"url\":\"https://example.com/droid\",\"conditions\":[{\"type\":\"device\","
                    + "\"matchValue\":\"android\"}]}]}}";

    @TempDir
    Path folder;

    JsonLinesSource source(String text) throws IOException {
        Path file = folder.resolve("links.jsonl");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return new JsonLinesSource(file, JsonMapper.builder().build());
    }

    @Test
    void everyFieldOfTheExportIsRead() throws IOException {
        StepVerifier.create(source(EXPORTED + "\n").read(null))
                .assertNext(record -> {
                    assertThat(record.ref()).isEqualTo("line 1");
                    assertThat(record.resumeFrom()).isEqualTo("1");
                    assertThat(record.code()).isEqualTo("code-a");
                    assertThat(record.domain()).isEqualTo("two.test");
                    assertThat(record.url()).isEqualTo("https://example.com/a");
                    assertThat(record.tags()).containsExactly("news", "docs");
                    assertThat(record.title()).isEqualTo("A, title");
                    assertThat(record.createdAt()).isEqualTo(Instant.parse("2024-01-02T03:04:05.678Z"));
                    assertThat(record.expiresAt()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
                    assertThat(record.maxVisits()).isEqualTo(9);
                    assertThat(record.crawlable()).isTrue();
                    assertThat(record.forwardQuery()).isTrue();
                    assertThat(record.redirectStatus()).isEqualTo(308);
                    assertThat(record.disabled()).isTrue();
                    assertThat(record.clicks()).isEqualTo(12);
                    assertThat(record.rulesJson())
                            .isEqualTo("{\"rules\":[{\"url\":\"https://example.com/droid\",\"conditions\":[{\"type\":"
                                    + "\"device\",\"matchValue\":\"android\"}]}]}");
                    assertThat(record.unreadable()).isNull();
                })
                .verifyComplete();
    }

    @Test
    void aReReadFromACheckpointSkipsTheLinesUpToItAndBlankLinesAreSkipped() throws IOException {
        JsonLinesSource source = source("{\"shortCode\":\"one\",\"longUrl\":\"https://example.com/1\"}\n\n"
                + "{\"shortCode\":\"two\",\"longUrl\":\"https://example.com/2\"}\n"
                + "{\"shortCode\":\"three\",\"longUrl\":\"https://example.com/3\"}\n");
        StepVerifier.create(source.read("3"))
                .assertNext(record -> assertThat(record.ref()).isEqualTo("line 4"))
                .verifyComplete();
        StepVerifier.create(source.read(null).map(record -> record.code()))
                .expectNext("one", "two", "three")
                .verifyComplete();
        StepVerifier.create(source.total()).expectNext(3L).verifyComplete();
    }

    @Test
    void aLineThatIsNoLinkOrHoldsAFieldOfTheWrongKindIsUnreadable() throws IOException {
        StepVerifier.create(source("{oops\n[1]\n{\"longUrl\":\"https://example.com/x\",\"maxVisits\":1.5}\n"
                                + "{\"longUrl\":\"https://example.com/x\",\"tags\":\"a|b\"}\n"
                                + "{\"longUrl\":\"https://example.com/x\",\"rules\":\"[]\"}\n"
                                + "{\"longUrl\":\"https://example.com/x\",\"validUntil\":\"soon\"}\n")
                        .read(null)
                        .map(record -> record.ref() + ": " + record.unreadable()))
                .expectNext("line 1: Unreadable line: not a JSON object.")
                .expectNext("line 2: Unreadable line: not a JSON object.")
                .expectNext("line 3: Unreadable number '1.5' in maxVisits.")
                .expectNext("line 4: tags must be an array of strings.")
                .expectNext("line 5: rules must be an object or null.")
                .expectNext("line 6: Unreadable date 'soon'.")
                .verifyComplete();
    }
}
