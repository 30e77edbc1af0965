package dev.shortgate.visit;

import java.util.UUID;

import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkersFactoryResolver;

/** {@link MultiRowSql} for tests of other packages that only build statements. */
public final class MultiRowSqls {

    private MultiRowSqls() {}

    /** Statements with MySQL literals, as the pods build them, over an empty in-memory H2 that is never asked. */
    public static MultiRowSql withLiterals() {
        ConnectionFactory factory =
                ConnectionFactories.get("r2dbc:h2:mem:///literals-" + UUID.randomUUID() + "?options=MODE=MySQL");
        return new MultiRowSql(DatabaseClient.create(factory), BindMarkersFactoryResolver.resolve(factory), true, 0);
    }
}
