package dev.shortgate.visit;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Visit ids: 96 bits in MongoDB's ObjectId layout (https://www.mongodb.com/docs/manual/reference/bson-types/#objectid), so every pod makes them with no coordination.
 *
 * <pre>
 *   bytes 0-3   seconds since the epoch, big-endian (the visit's time)
 *   bytes 4-8   this process's identity: 5 random bytes chosen at start-up
 *   bytes 9-11  a counter, starting at a random value, big-endian
 * </pre>
 *
 * Stored as {@code BINARY(12)}. In the API an id is 16 characters of URL-safe base64 (RFC 4648 section 5, no
 * padding): 96 bits are exactly 16 six-bit characters, so the codec is lossless both ways. The
 * alphabet is in the standard base64url order ({@code A-Za-z0-9-_}), not a home-made one such as
 * {@code 0-9a-zA-Z-_}, so any client's base64url decoder reads our ids. The 24-character hex form (the usual ObjectId text) converts to and
 * from the 16-character form with {@link #hexToText} and {@link #textToHex}.
 */
public final class VisitId {

    static final int BYTES = 12;
    static final int TEXT_LENGTH = 16;
    static final int HEX_LENGTH = 24;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final HexFormat HEX = HexFormat.of();

    private final byte[] identity = new byte[5];
    private final AtomicInteger counter;

    public VisitId() {
        SecureRandom random = new SecureRandom();
        random.nextBytes(identity);
        counter = new AtomicInteger(random.nextInt());
    }

    /** A new id for a visit at this instant. Ids of one process made in the same second differ by counter. */
    public byte[] next(Instant at) {
        int seconds = (int) at.getEpochSecond();
        int count = counter.getAndIncrement();
        byte[] id = new byte[BYTES];
        id[0] = (byte) (seconds >>> 24);
        id[1] = (byte) (seconds >>> 16);
        id[2] = (byte) (seconds >>> 8);
        id[3] = (byte) seconds;
        System.arraycopy(identity, 0, id, 4, 5);
        id[9] = (byte) (count >>> 16);
        id[10] = (byte) (count >>> 8);
        id[11] = (byte) count;
        return id;
    }

    /** The smallest id of a visit at this instant's second: every older visit's id sorts below it. */
    public static byte[] firstOfSecond(Instant at) {
        int seconds = (int) at.getEpochSecond();
        byte[] id = new byte[BYTES];
        id[0] = (byte) (seconds >>> 24);
        id[1] = (byte) (seconds >>> 16);
        id[2] = (byte) (seconds >>> 8);
        id[3] = (byte) seconds;
        return id;
    }

    /** The 16-character form of a 12-byte id. */
    public static String toText(byte[] id) {
        if (id == null || id.length != BYTES) {
            throw new IllegalArgumentException(
                    "A visit id has " + BYTES + " bytes, got " + (id == null ? "none" : id.length));
        }
        return ENCODER.encodeToString(id);
    }

    /** The 12 bytes of a 16-character id; rejects any other length or a character outside base64url. */
    public static byte[] fromText(String text) {
        if (text == null || text.length() != TEXT_LENGTH) {
            throw new IllegalArgumentException("A visit id is " + TEXT_LENGTH + " characters of URL-safe base64, got "
                    + (text == null ? "none" : text.length() + " characters"));
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
                throw new IllegalArgumentException(
                        "A visit id may hold only A-Z, a-z, 0-9, '-' and '_'; found '" + c + "' at index " + i);
            }
        }
        return DECODER.decode(text);
    }

    /** The 24-character lower-case hex form of a 12-byte id. */
    static String toHex(byte[] id) {
        toText(id);
        return HEX.formatHex(id);
    }

    /** The 12 bytes of a 24-character hex id (either case). */
    static byte[] fromHex(String hex) {
        if (hex == null || hex.length() != HEX_LENGTH) {
            throw new IllegalArgumentException("A hex visit id is " + HEX_LENGTH + " hex digits, got "
                    + (hex == null ? "none" : hex.length() + " characters"));
        }
        try {
            return HEX.parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("A hex visit id may hold only 0-9 and a-f: " + e.getMessage(), e);
        }
    }

    /** 24 hex digits to 16 base64url characters. */
    static String hexToText(String hex) {
        return toText(fromHex(hex));
    }

    /** 16 base64url characters to 24 hex digits. */
    static String textToHex(String text) {
        return toHex(fromText(text));
    }
}
