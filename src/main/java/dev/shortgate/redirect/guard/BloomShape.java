package dev.shortgate.redirect.guard;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;

/**
 * The size of a Bloom filter of codes and where a code's bits are: {@code k} positions in {@code m} bits from one
 * 128-bit murmur3 hash by double hashing, as Guava's own {@code BloomFilter} places them. Sized for the expected
 * number of codes and false-positive rate with the standard formulas; past that many codes the false-positive rate
 * rises smoothly, and nothing else changes.
 */
public record BloomShape(long bits, int hashes) {

    private static final HashFunction MURMUR = Hashing.murmur3_128();

    public static BloomShape of(long expectedCodes, double falsePositiveRate) {
        long bits = (long) Math.ceil(-expectedCodes * Math.log(falsePositiveRate) / (Math.log(2) * Math.log(2)));
        int hashes = Math.max(1, (int) Math.round((double) bits / expectedCodes * Math.log(2)));
        return new BloomShape(bits, hashes);
    }

    /** The code's bit positions, each in {@code [0, bits)}. */
    long[] positions(String code) {
        ByteBuffer hash = ByteBuffer.wrap(
                        MURMUR.hashString(code, StandardCharsets.UTF_8).asBytes())
                .order(ByteOrder.LITTLE_ENDIAN);
        long first = hash.getLong();
        long second = hash.getLong();
        long[] positions = new long[hashes];
        long combined = first;
        for (int i = 0; i < hashes; i++) {
            positions[i] = (combined & Long.MAX_VALUE) % bits;
            combined += second;
        }
        return positions;
    }
}
