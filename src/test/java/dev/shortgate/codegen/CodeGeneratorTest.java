package dev.shortgate.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongToIntFunction;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

public class CodeGeneratorTest {

    static final byte[] KEY = "shortgate-unit-test-key-0123456789".getBytes(StandardCharsets.US_ASCII);
    static final byte[] OTHER_KEY = "another-unit-test-key-9876543210ab".getBytes(StandardCharsets.US_ASCII);

    /** Codes per histogram. The issue asks for at least 200,000. */
    public static final int SAMPLES = 200_000;

    /**
     * The chi-squared critical value for 61 degrees of freedom (62 characters) at p = 0.0001: the upper 0.01%
     * quantile, {@code scipy.stats.chi2.isf(1e-4, 61) = 110.8397} (the Wilson-Hilferty approximation gives 110.99).
     * The inputs are fixed, so the test is deterministic; the small p only says how surprising a failure would be
     * for a truly uniform generator.
     */
    public static final double CHI_SQUARED_CRITICAL_DF61_P0001 = 110.84;

    final CodeGenerator generator = new CodeGenerator(KEY);
    final Mac referenceMac = referenceMac();

    @ParameterizedTest(name = "length {0}")
    @ValueSource(ints = {7, 8})
    void everyPositionOfEveryCandidateIsUniformOverTheAlphabet(int length) {
        // counts[window][position][character]: one histogram per candidate window and position, each over
        // SAMPLES codes made from distinct URLs.
        long[][][] counts = new long[CodeGenerator.CANDIDATES_PER_ROUND][length][Base62.RADIX];
        for (int i = 0; i < SAMPLES; i++) {
            List<String> candidates = generator.candidates(url(i), length, null);
            assertThat(candidates).hasSize(CodeGenerator.CANDIDATES_PER_ROUND);
            for (int w = 0; w < candidates.size(); w++) {
                String code = candidates.get(w);
                for (int p = 0; p < length; p++) {
                    counts[w][p][Base62.ALPHABET.indexOf(code.charAt(p))]++;
                }
            }
        }
        for (int w = 0; w < counts.length; w++) {
            for (int p = 0; p < length; p++) {
                String where = "window " + w + ", position " + p;
                assertThat(counts[w][p])
                        .as("all 62 characters appear at " + where)
                        .doesNotContain(0L);
                assertThat(chiSquared(counts[w][p]))
                        .as("chi-squared at " + where)
                        .isLessThan(CHI_SQUARED_CRITICAL_DF61_P0001);
            }
        }
    }

    @Test
    void aCharacterMaskOf0x3DWouldFailTheUniformityCheck() {
        // A common scheme picks each character with (bits & 0x3D). Applied to the same HMAC windows, the zero bits of
        // 0x3D (0b111101) are never set, so only 2^5 = 32 of the 62 characters can ever appear.
        // The same windows reduced mod 62^8, as CodeGenerator does, pass at every position.
        long[] windows = new long[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            windows[i] = windows(url(i)).getLong(0);
        }
        for (int p = 0; p < 8; p++) {
            int shift = 4 * p;
            int position = p;
            long[] masked = histogram(windows, window -> (int) ((window >>> shift) & 0x3D));
            assertThat(missing(masked))
                    .as("characters the mask never yields at position " + p)
                    .isEqualTo(NEVER_UNDER_MASK);
            assertThat(chiSquared(masked)).isGreaterThan(100 * CHI_SQUARED_CRITICAL_DF61_P0001);

            long[] reduced = histogram(
                    windows,
                    window -> Base62.ALPHABET.indexOf(Base62.encode(window, 8).charAt(position)));
            assertThat(reduced).doesNotContain(0L);
            assertThat(chiSquared(reduced)).isLessThan(CHI_SQUARED_CRITICAL_DF61_P0001);
        }
    }

    @Test
    void candidatesAreTheFourHmacWindowsWrittenInBase62() {
        String url = "https://example.com/reference";
        ByteBuffer digest = windows(url);
        List<String> expected = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            expected.add(Base62Test.reference(new BigInteger(Long.toUnsignedString(digest.getLong(8 * w))), 7));
        }

        assertThat(generator.candidates(url, 7, null)).containsExactlyElementsOf(expected);
    }

    @Test
    void sameUrlAndKeyGiveTheSameFourCandidates() {
        CodeGenerator again = new CodeGenerator(KEY.clone());
        for (int i = 0; i < 100; i++) {
            List<String> first = generator.candidates(url(i), 7, null);
            assertThat(first).hasSize(4).doesNotHaveDuplicates();
            assertThat(generator.candidates(url(i), 7, null)).isEqualTo(first);
            assertThat(again.candidates(url(i), 7, null)).isEqualTo(first);
        }
    }

    @Test
    void differentKeyGivesDifferentCandidates() {
        CodeGenerator other = new CodeGenerator(OTHER_KEY);
        for (int i = 0; i < 100; i++) {
            assertThat(other.candidates(url(i), 7, null))
                    .doesNotContainAnyElementsOf(generator.candidates(url(i), 7, null));
        }
    }

    @Test
    void differentUrlsGiveDifferentCandidates() {
        assertThat(generator.candidates("https://example.com/a", 8, null))
                .doesNotContainAnyElementsOf(generator.candidates("https://example.com/b", 8, null));
    }

    @Test
    void saltGivesNewCandidatesAndTheSameSaltGivesTheSameOnes() {
        String url = "https://example.com/salted";
        List<String> unsalted = generator.candidates(url, 7, null);
        List<String> salted = generator.candidates(url, 7, "1700000000000-1");

        assertThat(salted).hasSize(4).doesNotContainAnyElementsOf(unsalted);
        assertThat(generator.candidates(url, 7, "1700000000000-1")).isEqualTo(salted);
        assertThat(generator.candidates(url, 7, "1700000000000-2")).doesNotContainAnyElementsOf(salted);
        assertThat(generator.candidates(url, 7, ""))
                .as("empty salt is still a salt")
                .doesNotContainAnyElementsOf(unsalted);
    }

    @ParameterizedTest(name = "length {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void candidatesHaveExactlyTheRequestedLength(int length) {
        for (int i = 0; i < 1_000; i++) {
            List<String> candidates = generator.candidates(url(i), length, null);
            assertThat(candidates)
                    .isNotEmpty()
                    .hasSizeLessThanOrEqualTo(4)
                    .doesNotHaveDuplicates()
                    .allSatisfy(code -> assertThat(code).hasSize(length).matches("[0-9a-zA-Z]+"));
        }
    }

    @Test
    void lengthOneRoundsDropRepeatedCandidatesButKeepTheirOrder() {
        int shortRounds = 0;
        for (int i = 0; i < 1_000; i++) {
            List<String> all = new ArrayList<>();
            ByteBuffer windows = windows(url(i));
            for (int w = 0; w < 4; w++) {
                String code = Base62.encode(windows.getLong(8 * w), 1);
                if (!all.contains(code)) {
                    all.add(code);
                }
            }
            assertThat(generator.candidates(url(i), 1, null)).isEqualTo(all);
            shortRounds += all.size() < 4 ? 1 : 0;
        }
        // P(four draws from 62 are not all distinct) = 1 - 61*60*59/62^3, about 9.4%.
        assertThat(shortRounds).isBetween(50, 150);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 9, 64})
    void invalidLengthsAreRejected(int length) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> generator.candidates("https://example.com/", length, null))
                .withMessage("Code length must be between 1 and 8, got " + length);
    }

    @Test
    void secretsShorterThanSixteenBytesAreRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new CodeGenerator(new byte[15]))
                .withMessageContaining("at least 16 bytes");
        assertThatIllegalArgumentException().isThrownBy(() -> new CodeGenerator(null));
        assertThat(new CodeGenerator(new byte[16]).candidates("https://example.com/", 7, null))
                .hasSize(4);
    }

    @Test
    void changingTheSecretArrayAfterConstructionChangesNothing() {
        byte[] secret = KEY.clone();
        CodeGenerator copy = new CodeGenerator(secret);
        Arrays.fill(secret, (byte) 0);

        assertThat(copy.candidates(url(1), 7, null)).isEqualTo(generator.candidates(url(1), 7, null));
    }

    @Test
    void concurrentCallersGetTheSameCandidatesAsOneCaller() throws Exception {
        int urls = 2_000;
        List<List<String>> expected = new ArrayList<>();
        for (int i = 0; i < urls; i++) {
            expected.add(generator.candidates(url(i), 7, i % 2 == 0 ? null : "s" + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<List<String>>>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    List<List<String>> mine = new ArrayList<>();
                    for (int i = 0; i < urls; i++) {
                        mine.add(generator.candidates(url(i), 7, i % 2 == 0 ? null : "s" + i));
                    }
                    return mine;
                }));
            }
            for (Future<List<List<String>>> result : results) {
                assertThat(result.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static String url(int i) {
        return "https://example.com/articles/" + i + "?utm_source=test";
    }

    /** The characters whose index has bit 1 set: 0x3D clears that bit, so the mask can never produce them. */
    private static final String NEVER_UNDER_MASK = "2367abefijmnqruvyzCDGHKLOPSTWX";

    private static String missing(long[] counts) {
        StringBuilder never = new StringBuilder();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) {
                never.append(Base62.ALPHABET.charAt(i));
            }
        }
        return never.toString();
    }

    /** How often each character index is picked from the windows. */
    private static long[] histogram(long[] windows, LongToIntFunction pick) {
        long[] counts = new long[Base62.RADIX];
        for (long window : windows) {
            counts[pick.applyAsInt(window)]++;
        }
        return counts;
    }

    /** The 32-byte HMAC of the URL with {@link #KEY}: the four 64-bit windows, computed without CodeGenerator. */
    private ByteBuffer windows(String url) {
        return ByteBuffer.wrap(referenceMac.doFinal(url.getBytes(StandardCharsets.UTF_8)));
    }

    private static Mac referenceMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Pearson's statistic against the uniform distribution over the cells. */
    public static double chiSquared(long[] counts) {
        long total = Arrays.stream(counts).sum();
        double expected = (double) total / counts.length;
        double sum = 0;
        for (long observed : counts) {
            double d = observed - expected;
            sum += d * d / expected;
        }
        return sum;
    }
}
