package dev.shortgate.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.ShortgateApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code import} command: an application without a web server, on an H2 file, with an exit status. */
class ImportCommandTest {

    @TempDir
    Path folder;

    record Run(int status, String out, String err) {}

    Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--spring.r2dbc.url=r2dbc:h2:file:///" + folder.toAbsolutePath()
                + "/shortgate?options=MODE=MySQL;DATABASE_TO_LOWER=TRUE");
        all.add("--shortgate.security.admin-key=command-admin-key-0123");
        int status = ImportCommand.run(
                ShortgateApplication.class,
                all.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void importsACsvFileWithoutAWebServerAndARerunChangesNothing() throws IOException {
        Path csv = folder.resolve("links.csv");
        Files.writeString(
                csv,
                "longUrl,shortCode,tags\nhttps://example.com/cli/a,cli-a,x|y\n"
                        + "https://example.com/cli/b,cli-b,\nhttp://10.0.0.1/private,cli-private,\n");
        try (ServerSocket taken = new ServerSocket(0)) {
            // a web server would fail to bind the port held here; the command does not start one
            String port = Integer.toString(taken.getLocalPort());
            Run dry = run(
                    "--from",
                    "csv",
                    "--file",
                    csv.toString(),
                    "--dry-run",
                    "--server.port=" + port,
                    "--management.server.port=" + port);
            assertThat(dry.status()).as(dry.err()).isZero();
            assertThat(dry.out()).contains("dry run: nothing written").contains("created=2");

            Run first = run("--from", "csv", "--file", csv.toString(), "--server.port=" + port);
            assertThat(first.status()).as(first.err()).isZero();
            assertThat(first.out())
                    .contains("done")
                    .contains("created=2, unchanged=0")
                    .contains("refused=1")
                    .contains("line 4: refused");
            assertThat(first.err()).contains("links/s").contains("3/3");

            Run again = run("--from", "csv", "--file", csv.toString());
            assertThat(again.status()).isZero();
            assertThat(again.out()).contains("created=0, unchanged=2");
        }
    }

    @Test
    void importsAJsonLinesExportAndARerunChangesNothing() throws IOException {
        Path jsonl = folder.resolve("links.jsonl");
        Files.writeString(
                jsonl,
                "{\"shortCode\":\"cli-j\",\"domain\":null,\"longUrl\":\"https://example.com/cli/j\","
                        + "\"tags\":[\"x\"],\"title\":\"J\",\"createdAt\":\"2024-01-02T03:04:05Z\",\"visits\":2}\n"
                        + "{\"shortCode\":\"cli-j-private\",\"longUrl\":\"http://10.0.0.1/private\"}\n");
        Run first = run("--from", "jsonl", "--file", jsonl.toString());
        assertThat(first.status()).as(first.err()).isZero();
        assertThat(first.out())
                .contains("created=1, unchanged=0")
                .contains("refused=1")
                .contains("seededClickTotals=1")
                .contains("line 2: refused");
        Run again = run("--from", "jsonl", "--file", jsonl.toString());
        assertThat(again.status()).isZero();
        assertThat(again.out()).contains("created=0, unchanged=1");
        assertThat(run("--from", "jsonl").status()).isEqualTo(2);
    }

    @Test
    void credentialsOnTheCommandLineAndUnknownSourcesAreRefused() {
        assertThat(run("--from", "shlink", "--url", "https://s.example", "--api-key=secret")
                        .status())
                .isEqualTo(2);
        assertThat(run("--from", "shlink", "--url", "https://s.example", "--shortgate.transfer.api-key=secret")
                        .status())
                .isEqualTo(2);
        assertThat(run("--from", "nowhere", "--url", "https://s.example").status())
                .isEqualTo(2);
        assertThat(run("--from", "csv").status()).isEqualTo(2);
    }
}
