package dev.shortgate.codegen.sequence;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.shortgate.codegen.Base62;
import dev.shortgate.codegen.CodeGenerator;

/**
 * A keyed bijection of {@code [0, 62^L)} onto itself for every code length {@code L}: the {@code sequence} strategy's
 * map from counter values to codes.
 *
 * <p>A balanced Feistel network of {@value #ROUNDS} rounds permutes the smallest even-bit domain {@code [0, 2^(2k))}
 * that holds {@code 62^L}; its round function is HMAC-SHA256 of (length, round, right half), keyed by a key derived
 * from the codegen secret, truncated to {@code k} bits. A Feistel network is a bijection whatever its round
 * function. Cycle-walking makes it one of {@code [0, 62^L)}: a value that lands outside the range is permuted again
 * until it lands inside (the domain is less than four times the range, so under two steps on average). Without the
 * key, consecutive counter values give unrelated codes, so codes cannot be walked through.
 *
 * <p>Thread-safe; {@link Mac} instances are kept per thread.
 */
public final class FeistelPermutation {

    static final int ROUNDS = 4;

    private final ThreadLocal<Mac> macs;
    private final int[] halfBits = new int[CodeGenerator.MAX_LENGTH + 1];

    /** @param secret the codegen secret; the permutation's key is derived from it, apart from the hash strategy's */
    public FeistelPermutation(byte[] secret) {
        byte[] key = derive(secret);
        SecretKeySpec spec = new SecretKeySpec(key, "HmacSHA256");
        this.macs = ThreadLocal.withInitial(() -> mac(spec));
        for (int length = CodeGenerator.MIN_LENGTH; length <= CodeGenerator.MAX_LENGTH; length++) {
            long size = Base62.spaceSize(length);
            int bits = 64 - Long.numberOfLeadingZeros(size - 1); // 2^bits >= size
            halfBits[length] = (bits + 1) / 2;
        }
    }

    private static byte[] derive(byte[] secret) {
        if (secret == null || secret.length < 16) {
            throw new IllegalArgumentException("The code generator's secret must be at least 16 bytes");
        }
        Mac mac = mac(new SecretKeySpec(secret.clone(), "HmacSHA256"));
        return mac.doFinal("shortgate sequence permutation v1".getBytes(StandardCharsets.UTF_8));
    }

    private static Mac mac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** The image of {@code value} in {@code [0, 62^length)}. */
    public long permute(long value, int length) {
        long size = Base62.spaceSize(length);
        if (value < 0 || value >= size) {
            throw new IllegalArgumentException(value + " is outside [0, 62^" + length + ")");
        }
        long x = value;
        do {
            x = feistel(x, length);
        } while (x >= size);
        return x;
    }

    /** The code of counter value {@code value}: its image written as {@code length} base-62 digits. */
    public String code(long value, int length) {
        return Base62.encode(permute(value, length), length);
    }

    private long feistel(long x, int length) {
        int k = halfBits[length];
        long mask = (1L << k) - 1;
        long left = x >>> k;
        long right = x & mask;
        Mac mac = macs.get();
        ByteBuffer input = ByteBuffer.allocate(10);
        for (int round = 0; round < ROUNDS; round++) {
            input.clear();
            input.put((byte) length).put((byte) round).putLong(right);
            long f = ByteBuffer.wrap(mac.doFinal(input.array())).getLong() & mask;
            long next = left ^ f;
            left = right;
            right = next;
        }
        return (left << k) | right;
    }
}
