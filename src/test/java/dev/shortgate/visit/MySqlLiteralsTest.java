package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MySqlLiteralsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "plain",
                "it's",
                "\"",
                "\\",
                "\\'",
                "'); DROP TABLE visit; --",
                "NUL\u0000",
                "\r\n\t",
                "\u001a",
                "é",
                "\uD83D\uDE00",
                "X'41'",
                "?",
                "$1"
            })
    void textIsOnlyHexDigitsBetweenItsQuotesAndDecodesToTheUtf8OfTheValue(String value) {
        String literal = MySqlLiterals.text(new StringBuilder(), value).toString();

        assertThat(literal).matches("_utf8mb4 X'[0-9a-f]+'");
        String hex = literal.substring("_utf8mb4 X'".length(), literal.length() - 1);
        assertThat(new String(HexFormat.of().parseHex(hex), StandardCharsets.UTF_8))
                .isEqualTo(value);
    }

    @Test
    void textsLongerThanTheScratchArrayAreWrittenWhole() {
        for (String value : new String[] {"a".repeat(127), "a".repeat(128), "b".repeat(129), "ü".repeat(300)}) {
            String literal = MySqlLiterals.text(new StringBuilder("x"), value).toString();

            assertThat(literal).isEqualTo("x" + MySqlLiterals.textLiteral(value));
        }
    }

    @Test
    void bytesLongerThanTheScratchArrayAreWrittenWhole() {
        byte[] bytes = new byte[300];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }

        assertThat(MySqlLiterals.binary(new StringBuilder(), bytes).toString())
                .isEqualTo("X'" + HexFormat.of().formatHex(bytes) + "'");
    }

    @Test
    void aYearOfFiveDigitsIsRefusedRatherThanWrittenAsAnotherDate() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> MySqlLiterals.dateTime(new StringBuilder(), LocalDateTime.of(10_000, 1, 1, 0, 0)));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> MySqlLiterals.date(new StringBuilder(), LocalDate.of(10_000, 1, 1)));
    }

    @Test
    void nullAndEmptyTextHaveTheirOwnLiterals() {
        assertThat(MySqlLiterals.text(new StringBuilder(), null).toString()).isEqualTo("NULL");
        assertThat(MySqlLiterals.text(new StringBuilder(), "").toString()).isEqualTo("''");
        assertThat(MySqlLiterals.binary(new StringBuilder(), null).toString()).isEqualTo("NULL");
    }

    @Test
    void bytesAreHexIncludingZeroAndHighBytes() {
        assertThat(MySqlLiterals.binary(new StringBuilder(), new byte[] {0, 1, (byte) 0x7f, (byte) 0x80, (byte) 0xff})
                        .toString())
                .isEqualTo("X'00017f80ff'");
    }

    @Test
    void timesAreUtcWithMillisecondsAndDatesArePadded() {
        assertThat(MySqlLiterals.dateTime(new StringBuilder(), utc("2026-01-02T03:04:05.006Z"))
                        .toString())
                .isEqualTo("'2026-01-02 03:04:05.006'");
        assertThat(MySqlLiterals.dateTime(new StringBuilder(), utc("2026-11-22T23:59:59.999999Z"))
                        .toString())
                .isEqualTo("'2026-11-22 23:59:59.999'");
        assertThat(MySqlLiterals.date(new StringBuilder(), LocalDate.of(987, 6, 5))
                        .toString())
                .isEqualTo("'0987-06-05'");
        assertThat(MySqlLiterals.bool(new StringBuilder(), true)
                        .append(',')
                        .append(MySqlLiterals.bool(new StringBuilder(), false))
                        .toString())
                .isEqualTo("TRUE,FALSE");
    }

    @Test
    void anyBatchValueIsWrittenByItsTypeAndAnythingElseIsRefused() {
        StringBuilder sql = new StringBuilder();
        for (Object value : new Object[] {
            null, "a", new byte[] {1}, utc("2026-01-02T03:04:05.006Z"), LocalDate.of(2026, 1, 2), true, 7L, 8
        }) {
            MySqlLiterals.literal(sql, value).append(';');
        }
        assertThat(sql.toString())
                .isEqualTo("NULL;_utf8mb4 X'61';X'01';'2026-01-02 03:04:05.006';'2026-01-02';TRUE;7;8;");
        assertThatIllegalArgumentException().isThrownBy(() -> MySqlLiterals.literal(new StringBuilder(), 1.5));
    }

    private static LocalDateTime utc(String instant) {
        return LocalDateTime.ofInstant(Instant.parse(instant), ZoneOffset.UTC);
    }

    @Test
    void aMultiRowStatementWhoseLaterRowsAreLongerThanItsFirstIsWrittenWhole() {
        java.util.List<Object[]> rows = new java.util.ArrayList<>();
        StringBuilder expected = new StringBuilder("INSERT INTO t VALUES ");
        for (int r = 0; r < 50; r++) {
            Object[] row = {(long) r, "v".repeat(r * 7), utc("2026-01-02T03:04:05.006Z")};
            rows.add(row);
            expected.append(r == 0 ? "(" : ", (");
            for (int c = 0; c < row.length; c++) {
                MySqlLiterals.literal(expected.append(c == 0 ? "" : ", "), row[c]);
            }
            expected.append(')');
        }

        String sql = new MultiRowSql(null, null, true, 0)
                .multiRow("INSERT INTO t VALUES ", rows, " ON DUPLICATE KEY UPDATE n = n")
                .text();

        assertThat(sql)
                .isEqualTo(expected.append(" ON DUPLICATE KEY UPDATE n = n").toString());
    }

    @Test
    void aMultiRowStatementWritesRepeatedTextsAsIfEachWereEncodedAlone() {
        String agent = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0";
        java.util.List<Object[]> rows = java.util.List.of(
                new Object[] {1L, agent, "https://example.com/bench/a", "short", null},
                new Object[] {2L, new String(agent), "https://example.com/bench/a", "short", ""},
                new Object[] {3L, "é ünïcödé, long enough to be kept", "https://example.com/bench/b", "x", true});
        StringBuilder expected = new StringBuilder("INSERT INTO t VALUES ");
        for (int r = 0; r < rows.size(); r++) {
            expected.append(r == 0 ? "(" : ", (");
            Object[] row = rows.get(r);
            for (int c = 0; c < row.length; c++) {
                MySqlLiterals.literal(expected.append(c == 0 ? "" : ", "), row[c]);
            }
            expected.append(')');
        }

        String sql = new MultiRowSql(null, null, true, 0)
                .multiRow("INSERT INTO t VALUES ", rows, "")
                .text();

        assertThat(sql).isEqualTo(expected.toString());
        assertThat(MySqlLiterals.textLiteral(agent))
                .isEqualTo(MySqlLiterals.text(new StringBuilder(), agent).toString());
    }
}
