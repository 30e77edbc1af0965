package dev.shortgate.support;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** How the fuzz tests turn Jazzer's bytes into text. */
public final class FuzzInputs {

    private FuzzInputs() {}

    /**
     * The input as UTF-8, so seed files are plain text; an input that starts with byte {@code 0xFF} (never valid
     * UTF-8) is read as raw UTF-16BE instead, which reaches unpaired surrogates.
     */
    public static String text(byte[] input) {
        if (input.length > 0 && input[0] == (byte) 0xFF) {
            ByteBuffer rest = ByteBuffer.wrap(input, 1, (input.length - 1) & ~1);
            StringBuilder s = new StringBuilder();
            while (rest.remaining() >= 2) {
                s.append(rest.getChar());
            }
            return s.toString();
        }
        return new String(input, StandardCharsets.UTF_8);
    }
}
