package dev.shortgate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query list of {@code docs/scale-out.md} is the code's: every SQL statement in {@code src/main/java} is listed
 * once, with the path it runs on and the key it names, and none on the redirect, create or visit-write paths would
 * have to ask every shard.
 */
class ScaleOutQueriesTest {

    private static final Path DOC = Path.of("docs/scale-out.md");
    private static final Path SOURCES = Path.of("src/main/java/dev/shortgate");
    /** Where a statement is made: a {@code DatabaseClient.sql(...)} or a multi-row INSERT. */
    private static final Pattern STATEMENT = Pattern.compile("\\.sql\\(|(?<![A-Za-z])multiRow(?:\\.statement)?\\(");

    private static final Set<String> HOT_PATHS = Set.of("redirect", "create", "visit-write");
    private static final Set<String> UNSHARDED_TABLES = Set.of(
            "api_key",
            "shortgate_setting",
            "visit_flush",
            "code_pool",
            "code_sequence",
            "tag",
            "link_create_key",
            "orphan_visit_stats",
            "orphan_visit_domain_stats");

    record Row(String className, String fragment, String path, String key) {}

    static List<Row> rows;

    @BeforeAll
    static void readTheList() throws IOException {
        String doc = Files.readString(DOC);
        String table = doc.substring(doc.indexOf("<!-- queries:start -->"), doc.indexOf("<!-- queries:end -->"));
        rows = new ArrayList<>();
        Matcher row = Pattern.compile("(?m)^\\| `([^`]+)` \\| `(.+)` \\| ([a-z-]+) \\| ([a-z_]+) \\|$")
                .matcher(table);
        while (row.find()) {
            rows.add(new Row(row.group(1), row.group(2), row.group(3), row.group(4)));
        }
        assertThat(rows).as("rows of the query table").hasSizeGreaterThan(20);
    }

    @Test
    void everyClassThatMakesStatementsHasOneRowPerStatement() throws IOException {
        Map<String, Long> inCode = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String fileName = file.getFileName().toString();
                if (fileName.equals("MultiRowSql.java") || fileName.equals("MultiRow.java")) {
                    continue; // define multiRow() and MultiRow.statement(): the statements are their callers'
                }
                long statements =
                        STATEMENT.matcher(Files.readString(file)).results().count();
                if (statements > 0) {
                    String name = SOURCES.relativize(file)
                            .toString()
                            .replace('\\', '/')
                            .replace(".java", "");
                    inCode.put(name, statements);
                }
            }
        }
        Map<String, Long> listed =
                rows.stream().collect(Collectors.groupingBy(Row::className, TreeMap::new, Collectors.counting()));

        assertThat(listed).isEqualTo(inCode);
    }

    @Test
    void everyListedFragmentIsInItsClassExactlyOnce() throws IOException {
        for (Row row : rows) {
            String source = Files.readString(SOURCES.resolve(row.className() + ".java"));
            int first = source.indexOf(row.fragment());
            assertThat(first).as("%s in %s", row.fragment(), row.className()).isNotNegative();
            assertThat(source.indexOf(row.fragment(), first + 1))
                    .as("%s twice in %s", row.fragment(), row.className())
                    .isNegative();
        }
    }

    @Test
    void noStatementOnTheRedirectCreateOrVisitWritePathsAsksEveryShard() {
        assertThat(rows)
                .filteredOn(row -> HOT_PATHS.contains(row.path()))
                .isNotEmpty()
                .allSatisfy(row -> {
                    switch (row.key()) {
                        // a list of keys (a batch) routes to the shards of those keys, as one key routes to its shard
                        case "code" ->
                            assertThat(row.fragment())
                                    .as(row.className())
                                    .containsPattern("code = :code|\\(code|, code,|code IN \\(");
                        case "long_url_hash" ->
                            assertThat(row.fragment())
                                    .as(row.className())
                                    .containsPattern("long_url_hash = :hash|long_url_hash IN \\(");
                        // orphan visits belong to no link: their raw rows shard by their own id, one insert per shard
                        case "id" ->
                            assertThat(row.fragment()).as(row.className()).containsPattern("\\(id, ");
                        case "unsharded" ->
                            assertThat(UNSHARDED_TABLES).as(row.fragment()).anyMatch(table -> row.fragment()
                                    .matches(".*\\b" + table + "\\b.*"));
                        default -> throw new AssertionError(row + " is on a hot path but keyed by " + row.key());
                    }
                });
        assertThat(rows)
                .extracting(Row::path)
                .allMatch(Set.of("redirect", "create", "visit-write", "api", "startup", "background")::contains);
        assertThat(rows)
                .extracting(Row::key)
                .allMatch(Set.of("code", "long_url_hash", "id", "unsharded", "scatter")::contains);
    }
}
