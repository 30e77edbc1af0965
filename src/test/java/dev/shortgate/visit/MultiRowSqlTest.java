package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkersFactoryResolver;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class MultiRowSqlTest {

    @Test
    void statementsFromAPublisherAreAskedForOneAtATimeAfterTheOneBeforeHasRun() {
        ConnectionFactory factory = ConnectionFactories.get(
                "r2dbc:h2:mem:///multirow-" + UUID.randomUUID() + "?options=DB_CLOSE_DELAY=-1;MODE=MySQL");
        DatabaseClient db = DatabaseClient.create(factory);
        MultiRowSql sql = new MultiRowSql(db, BindMarkersFactoryResolver.resolve(factory), false, 0);
        db.sql("CREATE TABLE t (n INT)").then().block();
        List<String> seen = new CopyOnWriteArrayList<>();

        Flux<MultiRowSql.Sql> statements = Flux.range(1, 3)
                .doOnRequest(n -> seen.add("request " + n))
                .concatMap(
                        i -> Mono.fromCallable(() -> {
                            Long rows = db.sql("SELECT COUNT(*) FROM t")
                                    .map(row -> row.get(0, Long.class))
                                    .one()
                                    .block();
                            seen.add("build " + i + " after " + rows + " rows");
                            return sql.multiRow("INSERT INTO t (n) VALUES ", List.<Object[]>of(new Object[] {i}), "");
                        }),
                        0);

        StepVerifier.create(sql.executeAll(statements)).verifyComplete();

        assertThat(seen).filteredOn(step -> step.startsWith("request")).containsOnly("request 1");
        assertThat(seen)
                .filteredOn(step -> step.startsWith("build"))
                .containsExactly("build 1 after 0 rows", "build 2 after 1 rows", "build 3 after 2 rows");
    }
}
