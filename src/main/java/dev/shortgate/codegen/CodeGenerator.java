package dev.shortgate.codegen;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.modulith.NamedInterface;

/**
 * Short-code candidates from a keyed hash of the URL: the usual hash-then-take-characters scheme, keyed and made
 * uniform (strategy {@code hash} of {@code docs/adr/0007-code-strategies.md}).
 *
 * <p>One round is one HMAC-SHA256 of the URL (plus a salt after the first round). Its 32 bytes are four 64-bit windows;
 * each window is reduced {@code mod 62^L} and written as {@code L} base-62 digits. Reducing a 64-bit value keeps every
 * candidate uniform over the whole {@code 62^L} space (the bias is below {@code 62^8 / 2^64}, about 1.2e-5), unlike the
 * {@code & 0x3D} mask some implementations pick characters with, which can never produce half of the alphabet. The key
 * matters: with a plain hash anyone could test whether a guessed URL has been shortened.
 *
 * <p>Thread-safe; {@link Mac} instances are kept per thread.
 */
@NamedInterface("codes")
public final class CodeGenerator {

    public static final int MIN_LENGTH = 1;
    public static final int MAX_LENGTH = 8;
    public static final int DEFAULT_LENGTH = 7;
    public static final int CANDIDATES_PER_ROUND = 4;

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte SALT_SEPARATOR = 0; // NUL never appears in a valid URL, so url+salt is unambiguous

    private final ThreadLocal<Mac> macs;

    public CodeGenerator(byte[] secret) {
        if (secret == null || secret.length < 16) {
            throw new IllegalArgumentException("The code generator's secret must be at least 16 bytes");
        }
        SecretKeySpec key = new SecretKeySpec(secret.clone(), ALGORITHM);
        this.macs = ThreadLocal.withInitial(() -> newMac(key));
        newMac(key); // fail fast on a bad key
    }

    private static Mac newMac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (InvalidKeyException e) {
            throw new IllegalArgumentException("Invalid code generator secret", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available", e);
        }
    }

    /**
     * The candidates of one round, in order, without repeats (short lengths can repeat within a round).
     *
     * @param url    the URL to shorten, exactly as stored
     * @param length the code length, 1 to 8
     * @param salt   {@code null} for the first round; a timestamp or nonce for later rounds
     */
    public List<String> candidates(String url, int length, String salt) {
        checkLength(length);
        Mac mac = macs.get();
        mac.update(url.getBytes(StandardCharsets.UTF_8));
        if (salt != null) {
            mac.update(SALT_SEPARATOR);
            mac.update(salt.getBytes(StandardCharsets.UTF_8));
        }
        ByteBuffer digest = ByteBuffer.wrap(mac.doFinal());
        Set<String> codes = new LinkedHashSet<>(CANDIDATES_PER_ROUND * 2);
        for (int i = 0; i < CANDIDATES_PER_ROUND; i++) {
            codes.add(Base62.encode(digest.getLong(i * Long.BYTES), length));
        }
        return new ArrayList<>(codes);
    }

    public static void checkLength(int length) {
        if (length < MIN_LENGTH || length > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "Code length must be between " + MIN_LENGTH + " and " + MAX_LENGTH + ", got " + length);
        }
    }
}
