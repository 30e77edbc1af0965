package dev.shortgate.codegen.pool;

import java.security.SecureRandom;

import dev.shortgate.codegen.Base62;

/** Uniform random codes from a cryptographic generator, so pooled codes cannot be predicted. */
final class RandomCodes {

    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(SecureRandom::new);

    private RandomCodes() {}

    static String next(int length) {
        SecureRandom random = RANDOM.get();
        char[] digits = new char[length];
        for (int i = 0; i < length; i++) {
            digits[i] = Base62.ALPHABET.charAt(random.nextInt(Base62.RADIX));
        }
        return new String(digits);
    }
}
