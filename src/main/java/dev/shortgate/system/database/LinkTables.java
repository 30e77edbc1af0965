package dev.shortgate.system.database;

import java.util.function.Function;

import org.springframework.stereotype.Component;

/**
 * Which table holds a link, in the layout {@code shortgate.storage.table-split} names (docs/adr/0014-link-table-
 * split.md). Unsplit, every link is in {@code link}. Split by first character, the link with code {@code c…} is in
 * {@code link_NN}, where NN is the index of {@code c} in the code alphabet {@code 0-9a-zA-Z} (the order of
 * {@code codegen.Base62}); aliases that start with {@code -} or {@code _} go to {@code link_00}. Rows not moved yet
 * stay in {@code link}, which split-mode reads keep looking at until it is empty; the view {@code link_all} is
 * every link of both layouts.
 */
@Component
public final class LinkTables {

    /** The code alphabet in table order; {@code LinkTablesTest} holds it equal to {@code Base62.ALPHABET}. */
    static final String ORDER = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    /** The table of the layout before the split (and the only one when unsplit). */
    public static final String LEGACY = "link";

    private static final String[] SPLIT = new String[ORDER.length()];

    static {
        for (int i = 0; i < SPLIT.length; i++) {
            SPLIT[i] = String.format("link_%02d", i);
        }
    }

    private final boolean split;

    public LinkTables(StorageProperties properties) {
        this.split = properties.tableSplit() == StorageProperties.TableSplit.FIRST_CHAR;
    }

    /** Whether links are split over the 62 tables. */
    public boolean split() {
        return split;
    }

    /** The table a new link with this code goes to, and where it is found once moved. */
    public String table(String code) {
        return split ? splitTable(code) : LEGACY;
    }

    /** The split table of a code, whatever the layout. */
    public static String splitTable(String code) {
        int index = ORDER.indexOf(code.charAt(0));
        return SPLIT[Math.max(index, 0)];
    }

    /** The 62 split tables, {@code link_00} first. */
    public static java.util.List<String> splitTables() {
        return java.util.List.of(SPLIT);
    }

    /**
     * What to read when the code is not known (by URL hash, listings): {@code link}, or the view {@code link_all}
     * over {@code link} and the 62 tables. Conditions on indexed columns are pushed into each table's branch (MariaDB
     * and H2 both do); a query with {@code ORDER BY … LIMIT} should use {@link #eachTable} instead.
     */
    public String all() {
        return split ? "link_all" : LEGACY;
    }

    /**
     * One query per table joined by {@code UNION ALL}, each parenthesised so it carries its own
     * {@code ORDER BY … LIMIT}, ordered and limited again as a whole by {@code orderAndLimit}; unsplit, the query on
     * {@code link} alone.
     */
    public String eachTable(Function<String, String> query, String orderAndLimit) {
        if (!split) {
            return query.apply(LEGACY);
        }
        StringBuilder sql = new StringBuilder("SELECT * FROM ((")
                .append(query.apply(LEGACY))
                .append(')');
        for (String table : SPLIT) {
            sql.append(" UNION ALL (").append(query.apply(table)).append(')');
        }
        return sql.append(") u ").append(orderAndLimit).toString();
    }
}
