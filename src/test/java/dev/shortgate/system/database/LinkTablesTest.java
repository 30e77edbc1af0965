package dev.shortgate.system.database;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shortgate.codegen.Base62;
import org.junit.jupiter.api.Test;

class LinkTablesTest {

    private final LinkTables split =
            new LinkTables(new StorageProperties(StorageProperties.TableSplit.FIRST_CHAR, 500));
    private final LinkTables unsplit = new LinkTables(new StorageProperties(StorageProperties.TableSplit.NONE, 500));

    @Test
    void tablesFollowTheCodeAlphabetOrder() {
        assertThat(LinkTables.ORDER).isEqualTo(Base62.ALPHABET);
        assertThat(LinkTables.splitTables()).hasSize(62).startsWith("link_00").endsWith("link_61");
        for (int i = 0; i < Base62.ALPHABET.length(); i++) {
            assertThat(split.table(Base62.ALPHABET.charAt(i) + "x")).isEqualTo(String.format("link_%02d", i));
        }
    }

    @Test
    void codesAreRoutedByTheirFirstCharacterCaseSensitively() {
        assertThat(split.table("0abc")).isEqualTo("link_00");
        assertThat(split.table("aB")).isEqualTo("link_10");
        assertThat(split.table("Ab")).isEqualTo("link_36");
        assertThat(split.table("Z")).isEqualTo("link_61");
    }

    @Test
    void aliasesStartingWithDashOrUnderscoreGoToTheFirstTable() {
        assertThat(split.table("-promo")).isEqualTo("link_00");
        assertThat(split.table("_promo")).isEqualTo("link_00");
    }

    @Test
    void unsplitEverythingIsInLink() {
        assertThat(unsplit.table("Zz")).isEqualTo("link");
        assertThat(unsplit.all()).isEqualTo("link");
        assertThat(unsplit.eachTable(table -> "SELECT code FROM " + table + " LIMIT 5", "LIMIT 5"))
                .isEqualTo("SELECT code FROM link LIMIT 5");
    }

    @Test
    void splitReadsOfUnknownCodesCoverLinkAndEveryTable() {
        assertThat(split.all()).isEqualTo("link_all");
        String union = split.eachTable(
                table -> "SELECT code FROM " + table + " ORDER BY code LIMIT 5", "ORDER BY code LIMIT 5");
        assertThat(union)
                .startsWith("SELECT * FROM ((SELECT code FROM link ORDER BY code LIMIT 5) UNION ALL (")
                .contains("(SELECT code FROM link_33 ORDER BY code LIMIT 5)")
                .endsWith("(SELECT code FROM link_61 ORDER BY code LIMIT 5)) u ORDER BY code LIMIT 5");
        assertThat(union.split("UNION ALL")).hasSize(63);
    }
}
