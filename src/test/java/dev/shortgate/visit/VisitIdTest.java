package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

class VisitIdTest {

    @Test
    void randomIdsRoundTripThroughBothTextForms() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            byte[] id = new byte[12];
            random.nextBytes(id);
            String text = VisitId.toText(id);
            String hex = VisitId.toHex(id);

            assertThat(text).hasSize(16).matches("[A-Za-z0-9_-]{16}");
            assertThat(hex).hasSize(24);
            assertThat(VisitId.fromText(text)).isEqualTo(id);
            assertThat(VisitId.fromHex(hex)).isEqualTo(id);
            assertThat(VisitId.hexToText(hex)).isEqualTo(text);
            assertThat(VisitId.textToHex(text)).isEqualTo(hex);
        }
    }

    @Test
    void allZeroAndAllOneIdsRoundTrip() {
        byte[] zeros = new byte[12];
        byte[] ones = new byte[12];
        Arrays.fill(ones, (byte) 0xFF);

        assertThat(VisitId.toText(zeros)).isEqualTo("AAAAAAAAAAAAAAAA");
        assertThat(VisitId.toText(ones)).isEqualTo("________________");
        assertThat(VisitId.hexToText("000000000000000000000000")).isEqualTo("AAAAAAAAAAAAAAAA");
        assertThat(VisitId.textToHex("________________")).isEqualTo("ffffffffffffffffffffffff");
        assertThat(VisitId.fromText("AAAAAAAAAAAAAAAA")).isEqualTo(zeros);
        assertThat(VisitId.fromText("________________")).isEqualTo(ones);
    }

    @Test
    void seedObjectIdPacksSixBitsPerCharacterInBase64UrlOrder() {
        // An ObjectId's 12 bytes as 16 six-bit groups in RFC 4648 base64url's alphabet (a 0-9a-zA-Z-_ alphabet would
        // give "jD0wOTOIwqZNdydH" for the same groups).
        assertThat(VisitId.hexToText("4e7020cb7cac81af7136236b")).isEqualTo("TnAgy3ysga9xNiNr");
        assertThat(VisitId.textToHex("TnAgy3ysga9xNiNr")).isEqualTo("4e7020cb7cac81af7136236b");
        assertThat(VisitId.hexToText("4E7020CB7CAC81AF7136236B")).isEqualTo("TnAgy3ysga9xNiNr");
    }

    @Test
    void invalidInputIsRejectedWithAClearMessage() {
        assertThatThrownBy(() -> VisitId.fromText("short"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16 characters")
                .hasMessageContaining("got 5");
        assertThatThrownBy(() -> VisitId.fromText("AAAAAAAAAAAAAA=="))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'='")
                .hasMessageContaining("index 14");
        assertThatThrownBy(() -> VisitId.fromText("AAAAAAAAAAAAAAA+"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'+'");
        assertThatThrownBy(() -> VisitId.fromText(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VisitId.fromHex("4e7020cb7cac81af7136236"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("24 hex digits");
        assertThatThrownBy(() -> VisitId.fromHex("4e7020cb7cac81af7136236g"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0-9 and a-f");
        assertThatThrownBy(() -> VisitId.toText(new byte[11]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("12 bytes");
    }

    @Test
    void generatedIdsCarryTheSecondAndAreUniqueWithinAProcess() {
        VisitId ids = new VisitId();
        Instant at = Instant.parse("2025-03-01T12:00:00.750Z");
        Set<String> seen = new HashSet<>();
        byte[] first = ids.next(at);
        for (int i = 0; i < 100_000; i++) {
            byte[] id = ids.next(at);
            assertThat(seen.add(VisitId.toText(id))).isTrue();
            assertThat(Arrays.copyOfRange(id, 4, 9)).isEqualTo(Arrays.copyOfRange(first, 4, 9));
        }
        assertThat(HexFormat.of().formatHex(first, 0, 4)).isEqualTo(Long.toHexString(at.getEpochSecond()));
        assertThat(Arrays.copyOfRange(new VisitId().next(at), 4, 9)).isNotEqualTo(Arrays.copyOfRange(first, 4, 9));
    }
}
