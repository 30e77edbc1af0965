package dev.shortgate.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.math.BigInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Base62Test {

    @Test
    void alphabetIsDigitsThenLowerThenUpperCase() {
        assertThat(Base62.ALPHABET).isEqualTo("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
        assertThat(Base62.ALPHABET.chars().distinct().count()).isEqualTo(62);
        assertThat(Base62.RADIX).isEqualTo(62);
    }

    @Test
    void spaceSizeIsSixtyTwoToTheLength() {
        for (int length = 1; length <= 8; length++) {
            assertThat(Base62.spaceSize(length))
                    .isEqualTo(BigInteger.valueOf(62).pow(length).longValueExact());
        }
    }

    @Test
    void encodeWritesExactlyLengthDigitsMostSignificantFirst() {
        assertThat(Base62.encode(0, 1)).isEqualTo("0");
        assertThat(Base62.encode(0, 8)).isEqualTo("00000000");
        assertThat(Base62.encode(61, 1)).isEqualTo("Z");
        assertThat(Base62.encode(62, 2)).isEqualTo("10");
        assertThat(Base62.encode(62 * 62 - 1, 2)).isEqualTo("ZZ");
        assertThat(Base62.encode(10, 3)).isEqualTo("00a");
    }

    @Test
    void encodeReducesModuloTheCodeSpace() {
        assertThat(Base62.encode(62, 1)).isEqualTo("0");
        assertThat(Base62.encode(62L * 62 * 62 + 5, 3)).isEqualTo("005");
    }

    @ParameterizedTest
    @ValueSource(longs = {-1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x8000_0000_0000_0001L, -62L})
    void encodeTreatsTheWindowAsUnsigned(long window) {
        BigInteger unsigned = new BigInteger(Long.toUnsignedString(window));
        for (int length = 1; length <= 8; length++) {
            assertThat(Base62.encode(window, length)).isEqualTo(reference(unsigned, length));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 9, Integer.MIN_VALUE})
    void lengthsOutsideOneToEightAreRejected(int length) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Base62.encode(1, length))
                .withMessageContaining("between 1 and 8");
        assertThatIllegalArgumentException().isThrownBy(() -> Base62.spaceSize(length));
    }

    /** Base-62 by the book, with BigInteger: the value mod 62^length, padded to length digits. */
    static String reference(BigInteger value, int length) {
        BigInteger radix = BigInteger.valueOf(62);
        BigInteger rest = value.mod(radix.pow(length));
        char[] digits = new char[length];
        for (int i = length - 1; i >= 0; i--) {
            BigInteger[] qr = rest.divideAndRemainder(radix);
            digits[i] = Base62.ALPHABET.charAt(qr[1].intValue());
            rest = qr[0];
        }
        return new String(digits);
    }
}
