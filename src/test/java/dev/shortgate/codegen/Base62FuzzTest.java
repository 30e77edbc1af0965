package dev.shortgate.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.math.BigInteger;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes {@link Base62#encode}. Under {@code ./mvnw verify} it replays the inputs in
 * {@code src/test/resources/dev/shortgate/codegen/Base62FuzzTestInputs/encode/}; with {@code JAZZER_FUZZ=1} it
 * fuzzes.
 */
class Base62FuzzTest {

    private static final BigInteger TWO_TO_THE_64 = BigInteger.ONE.shiftLeft(64);

    @FuzzTest(maxDuration = "30s")
    void encode(FuzzedDataProvider data) {
        int length = data.consumeInt(-2, CodeGenerator.MAX_LENGTH + 2);
        long window = data.consumeLong();
        if (length < CodeGenerator.MIN_LENGTH || length > CodeGenerator.MAX_LENGTH) {
            assertThatIllegalArgumentException().isThrownBy(() -> Base62.encode(window, length));
            return;
        }

        String code = Base62.encode(window, length);

        assertThat(code).hasSize(length);
        BigInteger value = BigInteger.ZERO;
        for (char c : code.toCharArray()) {
            int digit = Base62.ALPHABET.indexOf(c);
            assertThat(digit).as("'%s' in %s", c, code).isNotNegative();
            value = value.multiply(BigInteger.valueOf(Base62.RADIX)).add(BigInteger.valueOf(digit));
        }
        BigInteger unsignedWindow = BigInteger.valueOf(window).mod(TWO_TO_THE_64);
        assertThat(value).isEqualTo(unsignedWindow.mod(BigInteger.valueOf(Base62.spaceSize(length))));
    }
}
