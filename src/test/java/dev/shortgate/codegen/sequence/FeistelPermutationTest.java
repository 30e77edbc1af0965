package dev.shortgate.codegen.sequence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;

import dev.shortgate.codegen.Base62;
import dev.shortgate.codegen.CodeGeneratorTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sequence strategy's map from counter values to codes: a bijection, keyed, and unrelated for neighbours. */
class FeistelPermutationTest {

    static final byte[] KEY = "feistel-permutation-test-secret".getBytes(StandardCharsets.UTF_8);

    final FeistelPermutation permutation = new FeistelPermutation(KEY);

    @ParameterizedTest(name = "length {0}")
    @ValueSource(ints = {1, 2, 3})
    void mapsEveryValueOfTheSpaceToADistinctValueOfTheSpace(int length) {
        int size = (int) Base62.spaceSize(length);
        BitSet seen = new BitSet(size);
        for (int value = 0; value < size; value++) {
            long image = permutation.permute(value, length);
            assertThat(image).as("image of " + value).isBetween(0L, size - 1L);
            assertThat(seen.get((int) image))
                    .as("second value mapped to " + image)
                    .isFalse();
            seen.set((int) image);
        }
        assertThat(seen.cardinality()).isEqualTo(size); // onto: every code of the length is reached once
    }

    @Test
    void consecutiveCountersGiveCodesUniformAtEveryPosition() {
        // The χ² method of CodeGeneratorTest, on the codes of counter values 0, 1, 2, ... (what one pod hands out)
        int length = 7;
        long[][] counts = new long[length][Base62.RADIX];
        for (long value = 0; value < CodeGeneratorTest.SAMPLES; value++) {
            String code = permutation.code(value, length);
            for (int p = 0; p < length; p++) {
                counts[p][Base62.ALPHABET.indexOf(code.charAt(p))]++;
            }
        }
        for (int p = 0; p < length; p++) {
            assertThat(counts[p]).as("all 62 characters at position " + p).doesNotContain(0L);
            assertThat(CodeGeneratorTest.chiSquared(counts[p]))
                    .as("chi-squared at position " + p)
                    .isLessThan(CodeGeneratorTest.CHI_SQUARED_CRITICAL_DF61_P0001);
        }
    }

    @Test
    void neighboursShareNoMoreCharactersThanChanceWould() {
        // A counter encoded plainly changes only its last digits; here each position differs 61/62 of the time.
        int length = 7;
        long same = 0;
        int pairs = 100_000;
        String previous = permutation.code(0, length);
        for (long value = 1; value <= pairs; value++) {
            String code = permutation.code(value, length);
            for (int p = 0; p < length; p++) {
                if (code.charAt(p) == previous.charAt(p)) {
                    same++;
                }
            }
            previous = code;
        }
        double expected = pairs * length / 62.0;
        assertThat((double) same).isBetween(expected * 0.9, expected * 1.1);
    }

    @Test
    void anotherKeyGivesAnotherPermutation() {
        FeistelPermutation other =
                new FeistelPermutation("another-secret-of-enough-length".getBytes(StandardCharsets.UTF_8));
        int differing = 0;
        for (long value = 0; value < 1000; value++) {
            if (!permutation.code(value, 7).equals(other.code(value, 7))) {
                differing++;
            }
        }
        assertThat(differing).isGreaterThan(990);
    }

    @Test
    void refusesValuesOutsideTheSpace() {
        assertThatIllegalArgumentException().isThrownBy(() -> permutation.permute(62, 1));
        assertThatIllegalArgumentException().isThrownBy(() -> permutation.permute(-1, 7));
    }
}
