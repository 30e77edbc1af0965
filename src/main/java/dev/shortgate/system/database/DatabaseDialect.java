package dev.shortgate.system.database;

import java.util.Locale;

import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Which database Shortgate talks to, asked in one place. The running application learns it from the
 * {@link ConnectionFactory}'s metadata ({@link #of(ConnectionFactory)}, a bean wired by {@link DatabaseConfiguration});
 * only the environment post-processor, which runs before any bean exists, reads it from the R2DBC URL
 * ({@link #ofUrl(ConnectionFactoryOptions)}).
 */
public enum DatabaseDialect {

    /** MySQL or MariaDB through r2dbc-mysql, which is non-blocking. */
    MYSQL,

    /** H2 through r2dbc-h2: the embedded mode, run on the calling thread. */
    H2;

    /**
     * The dialect of a connection factory: r2dbc-mysql names itself "MySQL" (for MariaDB too), r2dbc-h2 "H2", and a
     * pool reports the name of what it pools.
     */
    public static DatabaseDialect of(ConnectionFactory connectionFactory) {
        String name = connectionFactory.getMetadata().getName();
        String lower = name == null ? "" : name.toLowerCase(Locale.ROOT);
        if (lower.contains("mysql") || lower.contains("mariadb")) {
            return MYSQL;
        }
        if (lower.contains("h2")) {
            return H2;
        }
        throw new IllegalStateException("Unsupported R2DBC driver '" + name + "'; use r2dbc:mysql or r2dbc:h2");
    }

    /**
     * The dialect a parsed R2DBC URL names ({@code mysql}, {@code mariadb}, {@code h2}, each possibly behind
     * {@code pool:}), or {@code null} for any other driver or none.
     */
    static DatabaseDialect ofUrl(ConnectionFactoryOptions options) {
        String driver = driver(options);
        return switch (driver == null ? "" : driver) {
            case "mysql", "mariadb" -> MYSQL;
            case "h2" -> H2;
            default -> null;
        };
    }

    /** The driver an R2DBC URL's options name; for {@code r2dbc:pool:<driver>:...} the one the pool wraps. */
    static String driver(ConnectionFactoryOptions options) {
        Object driver = options.getValue(ConnectionFactoryOptions.DRIVER);
        if (!"pool".equals(driver)) {
            return driver == null ? null : driver.toString();
        }
        Object wrapped = options.getValue(ConnectionFactoryOptions.PROTOCOL);
        return wrapped == null ? null : wrapped.toString().split(":", 2)[0];
    }

    /**
     * Where redirect-path queries run. r2dbc-mysql is non-blocking, so its queries stay where they are. r2dbc-h2
     * runs H2 on the calling thread and can wait there on a lock (for example a counter row the visit writer is
     * updating); on an event loop that would stall every connection it serves and defeat the query's timeout, so
     * embedded-mode queries on the redirect path move to the bounded-elastic workers.
     */
    public Scheduler queryScheduler() {
        return this == H2 ? Schedulers.boundedElastic() : Schedulers.immediate();
    }

    /**
     * Whether this is the embedded mode, where one process owns the database (and may, for example, mint the first
     * admin key without racing other pods).
     */
    public boolean embedded() {
        return this == H2;
    }

    /**
     * Whether multi-row writes should carry their values as literals, and whether session lock waits can be
     * bounded ({@code lock_wait_timeout}): MySQL and MariaDB only.
     */
    public boolean mysql() {
        return this == MYSQL;
    }
}
