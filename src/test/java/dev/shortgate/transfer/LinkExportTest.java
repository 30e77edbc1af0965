package dev.shortgate.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.junit.jupiter.api.Test;

/**
 * The export puts each link's tags in the order MariaDB's utf8mb4_bin gives them (by code point), and writes CSV
 * fields byte for byte as commons-csv's printer does.
 */
class LinkExportTest {

    /** Values at every edge of the minimal quote mode: first and last characters, quotes, delimiters, line ends. */
    static final List<String> TRICKY = List.of(
            "",
            "plain",
            "https://example.com/a?b=c&d=e",
            "a,b",
            "say \"hi\"",
            "\"",
            "\"\"",
            "\"starts",
            "ends\"",
            "line\nbreak",
            "cr\rhere",
            " leading space",
            "trailing space ",
            "tab\t",
            "#hash",
            "!bang",
            "$dollar",
            "-1",
            "0",
            "2024-01-02T03:04:05.678Z",
            "Ünïcode ✓ \uD83D\uDE00",
            "{\"rules\":[{\"url\":\"https://example.com/droid\",\"conditions\":[]}],\"variants\":[]}",
            "a|b|c",
            "semi;colon",
            "\u0000nul");

    @Test
    void csvFieldsAreWrittenExactlyAsCommonsCsvPrintsThem() throws java.io.IOException {
        for (String first : TRICKY) {
            StringBuilder expected = new StringBuilder();
            try (CSVPrinter printer = new CSVPrinter(
                    expected,
                    CSVFormat.DEFAULT.builder().setRecordSeparator('\n').get())) {
                List<Object> record = new ArrayList<>();
                record.add(first);
                record.addAll(TRICKY);
                printer.printRecord(record);
            }
            StringBuilder written = new StringBuilder();
            LinkExport.field(written, first, true);
            TRICKY.forEach(value -> LinkExport.field(written, value, false));
            written.append('\n');
            assertThat(written.toString()).as(first).isEqualTo(expected.toString());
        }
    }

    @Test
    void tagsAreOrderedByCodePointAsTheDatabaseOrdersThem() {
        // U+1F600 (a surrogate pair in UTF-16) sorts after U+FF5E by code point, before it by UTF-16 unit
        List<String> tags = new ArrayList<>(List.of("\uD83D\uDE00", "\uFF5E", "b", "B", "a", "ab", ""));

        tags.sort(LinkExport::byCodePoint);

        assertThat(tags).containsExactly("", "B", "a", "ab", "b", "\uFF5E", "\uD83D\uDE00");
    }
}
