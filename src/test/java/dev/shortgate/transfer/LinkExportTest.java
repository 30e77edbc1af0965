package dev.shortgate.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The export puts each link's tags in the order MariaDB's utf8mb4_bin gives them: by code point. */
class LinkExportTest {

    @Test
    void tagsAreOrderedByCodePointAsTheDatabaseOrdersThem() {
        // U+1F600 (a surrogate pair in UTF-16) sorts after U+FF5E by code point, before it by UTF-16 unit
        List<String> tags = new ArrayList<>(List.of("\uD83D\uDE00", "\uFF5E", "b", "B", "a", "ab", ""));

        tags.sort(LinkExport::byCodePoint);

        assertThat(tags).containsExactly("", "B", "a", "ab", "b", "\uFF5E", "\uD83D\uDE00");
    }
}
