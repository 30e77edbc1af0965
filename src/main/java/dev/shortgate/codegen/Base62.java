package dev.shortgate.codegen;

import org.springframework.modulith.NamedInterface;

/** The code alphabet {@code 0-9a-zA-Z}, and fixed-length base-62 writing of a 64-bit window. */
@NamedInterface("codes")
public final class Base62 {

    public static final String ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    public static final int RADIX = ALPHABET.length();

    private static final long[] POWERS = new long[CodeGenerator.MAX_LENGTH + 1];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * RADIX;
        }
    }

    private Base62() {}

    /** How many codes of this length exist: {@code 62^length}. */
    public static long spaceSize(int length) {
        CodeGenerator.checkLength(length);
        return POWERS[length];
    }

    /**
     * Reduces an unsigned 64-bit window {@code mod 62^length} and writes it as exactly {@code length} digits,
     * most significant first.
     */
    public static String encode(long window, int length) {
        long value = Long.remainderUnsigned(window, spaceSize(length));
        char[] digits = new char[length];
        for (int i = length - 1; i >= 0; i--) {
            digits[i] = ALPHABET.charAt((int) (value % RADIX));
            value /= RADIX;
        }
        return new String(digits);
    }
}
