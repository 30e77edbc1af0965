package dev.shortgate.visit;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * SQL literals for MySQL and MariaDB that cannot break out of their quotes, whatever the value and whatever the
 * server's {@code sql_mode}. Every string is sent as the hex of its UTF-8 bytes ({@code _utf8mb4 X'4869'}) and
 * every byte array as hex ({@code X'00ff'}), so user-supplied text (user agents, referers) never reaches the SQL
 * as characters: nothing but hex digits, digits and fixed keywords does.
 *
 * <p>Why not bind parameters: r2dbc-mysql encodes every bound value through a publisher of its own, and a batch of
 * 500 visits has 7,000 values. A JFR profile of the hot-path benchmark put that encoding at about 30% of the
 * application's CPU. Literals built here cost a fraction of it. The H2 mode keeps binding by index.
 */
final class MySqlLiterals {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TEXT_PREFIX = "_utf8mb4 X'".getBytes(StandardCharsets.US_ASCII);
    private static final char[] HEX_CHARS = "0123456789abcdef".toCharArray();

    /**
     * Characters a thread writes a literal into before appending it to the statement in one call. A batch of 2,000
     * visits has about 20,000 short values; giving each its own arrays and string made the literals more than half of
     * all the bytes the application allocated at 20,000 redirects/s, and the young collections that followed were
     * the largest part of the paced scenario's tail (docs/performance.md, "The paced tail").
     */
    private static final int SCRATCH = 256;

    private static final ThreadLocal<char[]> SCRATCH_CHARS = ThreadLocal.withInitial(() -> new char[SCRATCH]);

    private MySqlLiterals() {}

    /**
     * Any value a visit batch writes, by its type: {@code NULL}, text, bytes, a {@code DATETIME(3)}, a date, a
     * boolean or an integer.
     */
    static StringBuilder literal(StringBuilder sql, Object value) {
        if (value == null) {
            return sql.append("NULL");
        } else if (value instanceof String text) {
            return text(sql, text);
        } else if (value instanceof byte[] bytes) {
            return binary(sql, bytes);
        } else if (value instanceof LocalDateTime time) {
            return dateTime(sql, time);
        } else if (value instanceof LocalDate day) {
            return date(sql, day);
        } else if (value instanceof Boolean bool) {
            return bool(sql, bool);
        } else if (value instanceof Long || value instanceof Integer) {
            return sql.append(((Number) value).longValue());
        }
        throw new IllegalArgumentException(
                "no MySQL literal for a " + value.getClass().getName());
    }

    /** A string as {@code _utf8mb4 X'..'}, {@code ''} when empty, or {@code NULL}. */
    static StringBuilder text(StringBuilder sql, String value) {
        if (value == null) {
            return sql.append("NULL");
        }
        if (value.isEmpty()) {
            return sql.append("''");
        }
        sql.append("_utf8mb4 X'");
        if (isAscii(value)) { // its UTF-8 bytes are its characters: no byte array needed
            char[] out = SCRATCH_CHARS.get();
            int at = 0;
            for (int i = 0; i < value.length(); i++) {
                if (at == SCRATCH) {
                    sql.append(out, 0, at);
                    at = 0;
                }
                char c = value.charAt(i);
                out[at++] = HEX_CHARS[c >> 4];
                out[at++] = HEX_CHARS[c & 0xf];
            }
            sql.append(out, 0, at);
        } else {
            hexDigits(sql, value.getBytes(StandardCharsets.UTF_8));
        }
        return sql.append('\'');
    }

    private static boolean isAscii(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** A non-empty string's literal, {@code _utf8mb4 X'..'}, as one Latin-1 string built in one array. */
    static String textLiteral(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        byte[] literal = new byte[TEXT_PREFIX.length + 2 * bytes.length + 1];
        System.arraycopy(TEXT_PREFIX, 0, literal, 0, TEXT_PREFIX.length);
        int at = TEXT_PREFIX.length;
        for (byte b : bytes) {
            literal[at++] = HEX[(b >> 4) & 0xf];
            literal[at++] = HEX[b & 0xf];
        }
        literal[at] = '\'';
        return new String(literal, StandardCharsets.ISO_8859_1);
    }

    /** Bytes as {@code X'..'}, or {@code NULL}. */
    static StringBuilder binary(StringBuilder sql, byte[] value) {
        if (value == null) {
            return sql.append("NULL");
        }
        return hex(sql.append("X'"), value).append('\'');
    }

    /** A (UTC) date and time as a {@code DATETIME(3)} literal, {@code '2026-11-22 08:30:00.123'}. */
    static StringBuilder dateTime(StringBuilder sql, LocalDateTime t) {
        char[] out = SCRATCH_CHARS.get();
        out[0] = '\'';
        digits(out, 1, t.getYear(), 4);
        out[5] = '-';
        digits(out, 6, t.getMonthValue(), 2);
        out[8] = '-';
        digits(out, 9, t.getDayOfMonth(), 2);
        out[11] = ' ';
        digits(out, 12, t.getHour(), 2);
        out[14] = ':';
        digits(out, 15, t.getMinute(), 2);
        out[17] = ':';
        digits(out, 18, t.getSecond(), 2);
        out[20] = '.';
        digits(out, 21, t.getNano() / 1_000_000, 3);
        out[24] = '\'';
        return sql.append(out, 0, 25);
    }

    /** A date as {@code '2026-11-22'}. */
    static StringBuilder date(StringBuilder sql, LocalDate value) {
        char[] out = SCRATCH_CHARS.get();
        out[0] = '\'';
        digits(out, 1, value.getYear(), 4);
        out[5] = '-';
        digits(out, 6, value.getMonthValue(), 2);
        out[8] = '-';
        digits(out, 9, value.getDayOfMonth(), 2);
        out[11] = '\'';
        return sql.append(out, 0, 12);
    }

    static StringBuilder bool(StringBuilder sql, boolean value) {
        return sql.append(value ? "TRUE" : "FALSE");
    }

    private static StringBuilder hex(StringBuilder sql, byte[] bytes) {
        return hexDigits(sql, bytes);
    }

    /** The bytes' hex digits, appended a scratch array at a time (a profile showed per-character appends here). */
    private static StringBuilder hexDigits(StringBuilder sql, byte[] bytes) {
        char[] out = SCRATCH_CHARS.get();
        int at = 0;
        for (byte b : bytes) {
            if (at == SCRATCH) {
                sql.append(out, 0, at);
                at = 0;
            }
            out[at++] = HEX_CHARS[(b >> 4) & 0xf];
            out[at++] = HEX_CHARS[b & 0xf];
        }
        return sql.append(out, 0, at);
    }

    /** {@code value} as exactly {@code width} decimal digits at {@code out[from]}; a year past 9999 is refused. */
    private static void digits(char[] out, int from, int value, int width) {
        if (value < 0) {
            throw new IllegalArgumentException("negative date or time field: " + value);
        }
        int v = value;
        for (int i = from + width - 1; i >= from; i--) {
            out[i] = (char) ('0' + v % 10);
            v /= 10;
        }
        if (v != 0) {
            throw new IllegalArgumentException("date or time field wider than " + width + " digits: " + value);
        }
    }
}
