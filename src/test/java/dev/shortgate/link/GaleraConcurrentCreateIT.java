package dev.shortgate.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.support.Conflicts;
import dev.shortgate.support.Pods;
import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

/**
 * {@link ConcurrentCreateChecks} on a 3-node Galera cluster, each pod on a node of its own (docs/adr/0021-galera.md):
 * a create of the same link on two nodes at once fails at COMMIT with a certification failure (1213), not a duplicate
 * key, and is run again from its find-if-exists. Also: every table Flyway made has a primary key, which Galera needs.
 */
class GaleraConcurrentCreateIT extends ConcurrentCreateChecks {

    @RegisterExtension
    static final Pods PODS = twoPods(Pods.onGalera(), "hash");

    @Override
    Pods pods() {
        return PODS;
    }

    @AfterAll
    static void report() {
        System.out.println("[galera] hash: pod A " + Conflicts.of(PODS.a()) + ", pod B " + Conflicts.of(PODS.b()));
    }

    /**
     * Many races at once, so that some creates of one link do reach two nodes within the same few milliseconds and lose
     * at COMMIT: every URL still ends with one row and one code, every create answers 200 or 201.
     */
    @Test
    void twentyLinksCreatedTenTimesOnEachOfTwoNodesAtOnceMakeOneRowAndOneCodeEach() {
        int urls = 20;
        int each = 10;
        List<Outcome> outcomes = Flux.range(0, urls * each * 2)
                .flatMap(
                        i -> create(
                                i % 2 == 0 ? PODS.a() : PODS.b(), "https://example.com/many-races/" + (i / 2) % urls),
                        urls * each * 2)
                .collectList()
                .block(Duration.ofSeconds(120));

        assertThat(outcomes).allSatisfy(o -> assertThat(o.status()).isIn(200, 201));
        Map<String, Long> codesPerUrl = new HashMap<>();
        outcomes.forEach(o -> codesPerUrl.merge(o.code(), 1L, Long::sum));
        assertThat(codesPerUrl).hasSize(urls).allSatisfy((code, n) -> assertThat(n)
                .isEqualTo(2L * each));
        assertThat(PODS.database()
                        .queryForLong(
                                "SELECT COUNT(*) FROM link_all WHERE long_url LIKE 'https://example.com/many-races/%'"))
                .isEqualTo(urls);
        System.out.println("[galera] 400 creates of 20 links on two nodes: pod A " + Conflicts.of(PODS.a()) + ", pod B "
                + Conflicts.of(PODS.b()));
    }

    @Test
    void everyTableHasAPrimaryKeyAndTheRowsAreTheSameOnEveryNode() {
        TestServers.Database database = PODS.database();
        long tables = database.queryForLong("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
                + database.name() + "' AND table_type = 'BASE TABLE'");
        long withoutKey = database.queryForLong("SELECT COUNT(*) FROM information_schema.tables t "
                + "WHERE t.table_schema = '" + database.name() + "' AND t.table_type = 'BASE TABLE' "
                + "AND NOT EXISTS (SELECT 1 FROM information_schema.table_constraints c "
                + "WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name "
                + "AND c.constraint_type = 'PRIMARY KEY')");
        assertThat(tables).as("tables, flyway_schema_history included").isGreaterThan(70);
        assertThat(withoutKey).as("tables without a primary key").isZero();

        List<String> nodes = TestServers.galeraNodeUrls();
        long links = database.queryForLong("SELECT COUNT(*) FROM link_all");
        long migrations = database.queryForLong("SELECT COUNT(*) FROM flyway_schema_history");
        for (String node : nodes) {
            assertThat(database.queryForLongOn(node, "SELECT COUNT(*) FROM link_all"))
                    .as(node)
                    .isEqualTo(links);
            assertThat(database.queryForLongOn(node, "SELECT COUNT(*) FROM flyway_schema_history"))
                    .as(node)
                    .isEqualTo(migrations);
        }
    }
}
