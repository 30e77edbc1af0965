package dev.shortgate.redirect.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRules;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class LinkCodecTest {

    final JsonMapper json = JsonMapper.builder().findAndAddModules().build();
    final LinkCodec codec = new LinkCodec(json);

    @Test
    void everyFieldSurvivesTheRoundTrip() {
        Link full = new Link(
                "Ab3_-x",
                "https://example.com/päth?q=1#ünïcode",
                308,
                true,
                Instant.parse("2026-11-23T10:15:30.123456789Z"),
                Instant.parse("2027-01-01T00:00:00Z"),
                5L,
                true,
                true,
                42L,
                Instant.parse("2026-11-24T00:00:00.5Z"));
        assertThat(codec.decode(codec.encode(full))).isEqualTo(full);
    }

    @Test
    void rulesAndSplitsSurviveTheRoundTripAndALinkWithoutRulesKeepsTheOldFormat() {
        LinkRules rules = new LinkRules(
                List.of(
                        new LinkRules.Rule(
                                "https://example.com/android",
                                List.of(
                                        new LinkRules.Condition("device", null, "android"),
                                        new LinkRules.Condition("query-param", "utm", "ä b")),
                                List.of()),
                        new LinkRules.Rule(
                                "https://example.com/a",
                                List.of(new LinkRules.Condition("language", null, "fr")),
                                List.of(
                                        new LinkRules.Variant("https://example.com/a", 3),
                                        new LinkRules.Variant("https://example.com/b", 1)))),
                List.of(
                        new LinkRules.Variant("https://example.com/x", 1),
                        new LinkRules.Variant("https://example.com/y", 1)));
        Link bare = new Link("r", "https://example.com/", 302, false, Instant.EPOCH, null, 7L, false, true, null, null);
        Link withRules = bare.withRules(rules);
        byte[] encoded = codec.encode(withRules);
        assertThat(encoded[0]).isEqualTo((byte) 2);
        assertThat(codec.decode(encoded)).isEqualTo(withRules);
        assertThat(codec.encode(bare)[0]).isEqualTo((byte) 1);
        assertThat(codec.encode(bare.withRules(LinkRules.NONE))).isEqualTo(codec.encode(bare));
    }

    @Test
    void absentOptionalFieldsStayAbsent() {
        Link bare =
                new Link("x", "https://example.com/", 302, false, Instant.EPOCH, null, null, false, false, null, null);
        assertThat(codec.decode(codec.encode(bare))).isEqualTo(bare);
        assertThat(codec.encode(bare)).hasSizeLessThan(json.writeValueAsBytes(bare).length / 3);
    }

    @Test
    void valuesWrittenAsJsonByAnOlderBuildAreStillRead() {
        Link link = new Link(
                "old",
                "https://example.com/old",
                301,
                false,
                Instant.parse("2026-01-01T00:00:00Z"),
                null,
                10L,
                false,
                true,
                null,
                null);
        assertThat(codec.decode(json.writeValueAsBytes(link))).isEqualTo(link);
    }

    @Test
    void truncatedOrForeignValuesAreRejectedNotMisread() {
        byte[] value = codec.encode(new Link(
                "abc", "https://example.com/", 302, false, Instant.EPOCH, null, null, false, false, null, null));
        for (int length = 0; length < value.length; length++) {
            byte[] cut = Arrays.copyOf(value, length);
            assertThatThrownBy(() -> codec.decode(cut))
                    .as("cut at %d", length)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> codec.decode(new byte[] {9, 0, 0})).isInstanceOf(IllegalArgumentException.class);
    }
}
