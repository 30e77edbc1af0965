package dev.shortgate.link.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.shortgate.link.LinkRules;
import org.junit.jupiter.api.Test;

/** The stored JSON of a rule set ({@code link_rules.rules_json}, the exports' {@code rules}) holds the model only. */
class LinkRulesJsonTest {

    static final LinkRules SPLIT = new LinkRules(
            List.of(),
            List.of(
                    new LinkRules.Variant("https://example.com/a", 70),
                    new LinkRules.Variant("https://example.com/b", 30)));

    @Test
    void storedRulesCarryNoEmptyFlag() {
        String json = LinkRows.writeRules(SPLIT);

        assertThat(json).doesNotContain("empty").contains("\"variants\"");
        assertThat(LinkRows.readRules(json)).isEqualTo(SPLIT);
    }

    @Test
    void rulesStoredByEarlierBuildsWithAnEmptyFlagStillRead() {
        String json = LinkRows.writeRules(SPLIT).replaceFirst("}$", ",\"empty\":false}");

        assertThat(json).contains("\"empty\":false");
        assertThat(LinkRows.readRules(json)).isEqualTo(SPLIT);
    }
}
