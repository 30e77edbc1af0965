package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.shortgate.support.FuzzInputs;

/**
 * Fuzzes {@link VisitId}'s codec. Under {@code ./mvnw verify} it replays the inputs in
 * {@code src/test/resources/dev/shortgate/visit/VisitIdFuzzTestInputs/<method>/}; with {@code JAZZER_FUZZ=1} it
 * fuzzes.
 *
 * <p>{@link #parse} reads its input bytes as UTF-8, so seed files are plain text; an input that starts with byte
 * {@code 0xFF} (never valid UTF-8) is read as raw UTF-16BE instead, which reaches unpaired surrogates.
 */
class VisitIdFuzzTest {

    private static final String BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    private static final Pattern TEXT = Pattern.compile("[A-Za-z0-9_-]{16}");
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{24}");

    /** Any 12 bytes round-trip through both text forms; any other length is refused. */
    @FuzzTest(maxDuration = "30s")
    void roundTrip(byte[] id) {
        if (id.length != VisitId.BYTES) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> VisitId.toText(id))
                    .withMessageContaining("12 bytes");
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> VisitId.toHex(id))
                    .withMessageContaining("12 bytes");
            return;
        }

        String text = VisitId.toText(id);
        String hex = VisitId.toHex(id);

        assertThat(text).isEqualTo(sixBitGroups(id));
        assertThat(hex).isEqualTo(HexFormat.of().formatHex(id));
        assertThat(VisitId.fromText(text)).isEqualTo(id);
        assertThat(VisitId.fromHex(hex)).isEqualTo(id);
        assertThat(VisitId.fromHex(hex.toUpperCase(Locale.ROOT))).isEqualTo(id);
        assertThat(VisitId.hexToText(hex)).isEqualTo(text);
        assertThat(VisitId.textToHex(text)).isEqualTo(hex);
    }

    /**
     * Any string is either a well-formed id, which decodes to bytes that encode back to its canonical form (the
     * text form itself; the hex form in lower case), or is refused with {@link IllegalArgumentException}.
     */
    @FuzzTest(maxDuration = "30s")
    void parse(byte[] input) {
        String raw = FuzzInputs.text(input);

        byte[] fromText = decodedOrNull(() -> VisitId.fromText(raw));
        assertThat(fromText != null)
                .as("accepted as text: %s", raw)
                .isEqualTo(TEXT.matcher(raw).matches());
        if (fromText != null) {
            assertThat(fromText).hasSize(VisitId.BYTES);
            assertThat(VisitId.toText(fromText)).isEqualTo(raw);
            assertThat(VisitId.textToHex(raw)).isEqualTo(VisitId.toHex(fromText));
        } else {
            assertThatIllegalArgumentException().isThrownBy(() -> VisitId.textToHex(raw));
        }

        byte[] fromHex = decodedOrNull(() -> VisitId.fromHex(raw));
        assertThat(fromHex != null)
                .as("accepted as hex: %s", raw)
                .isEqualTo(HEX.matcher(raw).matches());
        if (fromHex != null) {
            assertThat(fromHex).hasSize(VisitId.BYTES);
            assertThat(VisitId.toHex(fromHex)).isEqualTo(raw.toLowerCase(Locale.ROOT));
            assertThat(VisitId.hexToText(raw)).isEqualTo(VisitId.toText(fromHex));
        } else {
            assertThatIllegalArgumentException().isThrownBy(() -> VisitId.hexToText(raw));
        }
    }

    /** The decoded id, or {@code null} when the codec refused it as documented; any other exception escapes. */
    private static byte[] decodedOrNull(Supplier<byte[]> decoding) {
        try {
            return decoding.get();
        } catch (IllegalArgumentException e) {
            assertThat(e).hasMessageContaining("visit id");
            return null;
        }
    }

    /** The 96 bits as sixteen 6-bit groups in base64url's alphabet: an oracle that uses no base64 codec. */
    private static String sixBitGroups(byte[] id) {
        BigInteger bits = new BigInteger(1, id);
        StringBuilder text = new StringBuilder();
        for (int shift = 90; shift >= 0; shift -= 6) {
            text.append(BASE64URL.charAt(bits.shiftRight(shift).intValue() & 0x3F));
        }
        return text.toString();
    }
}
