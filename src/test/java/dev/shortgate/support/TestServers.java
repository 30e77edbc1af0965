package dev.shortgate.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import dev.shortgate.ShortgateApplication;
import io.r2dbc.spi.ConnectionFactoryOptions;
import org.junit.jupiter.api.Assumptions;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * The real MariaDB and Redis that integration tests use, named by {@code SHORTGATE_TEST_R2DBC_URL} (for example
 * {@code r2dbc:mysql://root@127.0.0.1:3306/shortgate_test}) and {@code SHORTGATE_TEST_REDIS_URL} (for example
 * {@code redis://127.0.0.1:6379}). When they are unset a test skips, unless {@code SHORTGATE_TEST_REQUIRE_SERVICES}
 * is {@code true} (as in CI), where it fails instead: CI never skips these tests. The same holds for the Redis
 * Cluster named by {@code SHORTGATE_TEST_REDIS_CLUSTER_NODES}.
 *
 * <p>Each test class gets a database of its own, created here and dropped when closed, and a Redis key prefix
 * of its own, so classes never see each other's data.
 */
public final class TestServers {

    /** The admin API key every test application is started with. */
    public static final String ADMIN_KEY = "test-admin-key-0123456789";

    private TestServers() {}

    public static String r2dbcUrl() {
        return required("SHORTGATE_TEST_R2DBC_URL");
    }

    public static String redisUrl() {
        return required("SHORTGATE_TEST_REDIS_URL");
    }

    /**
     * The seed nodes ({@code host:port,...}) of the test Redis Cluster, named by
     * {@code SHORTGATE_TEST_REDIS_CLUSTER_NODES}; {@code .ci/redis-cluster.sh start} starts one (3 masters and 3
     * replicas on loopback) and prints them. Some tests kill one of its masters, and start it again afterwards.
     */
    public static String redisClusterNodes() {
        return required("SHORTGATE_TEST_REDIS_CLUSTER_NODES");
    }

    /**
     * The R2DBC URL (database {@code shortgate_test}) of the test Galera cluster's load balancer, round-robin over its
     * Synced nodes, named by {@code SHORTGATE_TEST_GALERA_URL}; {@code .ci/galera.sh start} starts one (3 nodes and
     * haproxy on loopback) and prints it.
     */
    public static String galeraUrl() {
        return required("SHORTGATE_TEST_GALERA_URL");
    }

    /**
     * The R2DBC URLs of the test Galera cluster's pinned listeners ({@code .ci/galera.sh pinned-url 1} and {@code 2},
     * comma-separated, in {@code SHORTGATE_TEST_GALERA_PINNED_URLS}): listener K sends to node K while it is fit and
     * to the others otherwise, as a pod's connection to one node of a Kubernetes Service would go.
     */
    public static List<String> galeraPinnedUrls() {
        return List.of(required("SHORTGATE_TEST_GALERA_PINNED_URLS").split(","));
    }

    /**
     * The direct R2DBC URLs of the test Galera cluster's nodes 1, 2 and 3 ({@code .ci/galera.sh node-url N},
     * comma-separated, in {@code SHORTGATE_TEST_GALERA_NODE_URLS}).
     */
    public static List<String> galeraNodeUrls() {
        return List.of(required("SHORTGATE_TEST_GALERA_NODE_URLS").split(","));
    }

    private static String required(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            value = System.getProperty(name);
        }
        boolean require = Boolean.parseBoolean(System.getenv("SHORTGATE_TEST_REQUIRE_SERVICES"));
        if (value == null || value.isBlank()) {
            if (require) {
                throw new IllegalStateException(name + " is not set, and SHORTGATE_TEST_REQUIRE_SERVICES=true");
            }
            Assumptions.abort(name + " is not set; skipping a test that needs the real server");
        }
        return value;
    }

    /** A new, empty MariaDB database; {@link Database#close()} drops it. */
    public static Database newDatabase() {
        return newDatabase(r2dbcUrl(), false);
    }

    /**
     * A new, empty database on the test Galera cluster, made through its load balancer; {@link Database#close()} drops
     * it. Its reads wait until the node that serves them has applied every write the cluster had committed when they
     * began ({@code wsrep_sync_wait}), so a test reads what it wrote through any node.
     */
    public static Database newGaleraDatabase() {
        return newDatabase(galeraUrl(), true);
    }

    private static Database newDatabase(String serverUrl, boolean galera) {
        ConnectionFactoryOptions base = ConnectionFactoryOptions.parse(serverUrl);
        String name = "sgit_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        Database database = new Database(base, name, galera);
        database.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        return database;
    }

    /** A Redis key prefix no other test uses. */
    public static String newRedisPrefix() {
        return "sgit:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }

    /**
     * Starts a whole application on random ports with the given properties (on top of the defaults), the way
     * {@code java -jar} would: used where a test needs two pods side by side.
     */
    public static ConfigurableApplicationContext startApp(Map<String, Object> properties) {
        Map<String, Object> all = new HashMap<>();
        all.put("server.port", "0");
        all.put("management.server.port", "0");
        all.put("shortgate.security.admin-key", ADMIN_KEY);
        all.putAll(properties);
        String[] args = all.entrySet().stream()
                .map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        return new SpringApplicationBuilder(ShortgateApplication.class)
                .initializers(TestServers::ownNettyResources)
                .run(args);
    }

    /**
     * Gives the pod Reactor Netty resources (event loops, connection pool) of its own in place of the global ones
     * Boot's factory would use ({@code @ConditionalOnMissingBean}): pods in one test JVM that share the global loops
     * each stop them on close, and a later pod's close could then wait forever on a dispose Netty could no longer
     * report ("Failed to submit a listener notification task"). A pod in production is one context in its own JVM.
     */
    private static void ownNettyResources(ConfigurableApplicationContext context) {
        ((GenericApplicationContext) context)
                .registerBean("reactorResourceFactory", ReactorResourceFactory.class, () -> {
                    ReactorResourceFactory own = new ReactorResourceFactory();
                    own.setUseGlobalResources(false);
                    return own;
                });
    }

    /** One throwaway database on the test server. */
    public static final class Database implements AutoCloseable {

        private final ConnectionFactoryOptions base;
        private final String name;
        private final boolean galera;

        Database(ConnectionFactoryOptions base, String name, boolean galera) {
            this.base = base;
            this.name = name;
            this.galera = galera;
        }

        public String name() {
            return name;
        }

        /** The R2DBC URL of this database, credentials included. */
        public String r2dbcUrl() {
            return "r2dbc:mysql://" + credentials() + host() + "/" + name;
        }

        /** The R2DBC URL of this database on another server of the same credentials (a node of a cluster). */
        public String r2dbcUrlOn(String serverUrl) {
            ConnectionFactoryOptions other = ConnectionFactoryOptions.parse(serverUrl);
            return "r2dbc:mysql://" + credentials() + other.getValue(ConnectionFactoryOptions.HOST) + ":"
                    + other.getValue(ConnectionFactoryOptions.PORT) + "/" + name;
        }

        /** The JDBC URL of this database on another server of the same credentials (a node of a cluster). */
        public String jdbcUrlOn(String serverUrl) {
            ConnectionFactoryOptions other = ConnectionFactoryOptions.parse(serverUrl);
            return "jdbc:mariadb://" + other.getValue(ConnectionFactoryOptions.HOST) + ":"
                    + other.getValue(ConnectionFactoryOptions.PORT) + "/" + name;
        }

        /**
         * Runs a query in this database on another server of the same credentials (a node of a cluster) and returns the
         * first column of the first row, as a long. On a Galera node the read waits until the node has applied every
         * write the cluster had committed when it began ({@code wsrep_sync_wait}).
         */
        public long queryForLongOn(String serverUrl, String sql) {
            try (Connection connection = DriverManager.getConnection(jdbcUrlOn(serverUrl), user(), password());
                    Statement statement = connection.createStatement()) {
                statement.execute("SET SESSION wsrep_sync_wait = 1");
                try (var rows = statement.executeQuery(sql)) {
                    rows.next();
                    return rows.getLong(1);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("Could not run " + sql + " on " + jdbcUrlOn(serverUrl), e);
            }
        }

        public String user() {
            Object user = base.getValue(ConnectionFactoryOptions.USER);
            return user == null ? "root" : user.toString();
        }

        public String password() {
            Object password = base.getValue(ConnectionFactoryOptions.PASSWORD);
            return password == null ? "" : password.toString();
        }

        /** Properties that point an application at this database. */
        public Map<String, Object> properties() {
            Map<String, Object> properties = new HashMap<>();
            properties.put("spring.r2dbc.url", r2dbcUrl());
            return properties;
        }

        public void execute(String sql) {
            try (Connection connection = DriverManager.getConnection(jdbcUrl(""), user(), password());
                    Statement statement = connection.createStatement()) {
                statement.execute(sql);
            } catch (SQLException e) {
                throw new IllegalStateException("Could not run " + sql, e);
            }
        }

        /** Runs a query in this database and returns the first column of the first row, as a long. */
        public long queryForLong(String sql) {
            try (Connection connection = DriverManager.getConnection(jdbcUrl(name), user(), password());
                    Statement statement = connection.createStatement()) {
                if (galera) {
                    statement.execute("SET SESSION wsrep_sync_wait = 1");
                }
                try (var rows = statement.executeQuery(sql)) {
                    rows.next();
                    return rows.getLong(1);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("Could not run " + sql, e);
            }
        }

        /** Runs a statement in this database. */
        public void update(String sql) {
            try (Connection connection = DriverManager.getConnection(jdbcUrl(name), user(), password());
                    Statement statement = connection.createStatement()) {
                statement.execute(sql);
            } catch (SQLException e) {
                throw new IllegalStateException("Could not run " + sql, e);
            }
        }

        /** A JDBC connection of this database's own, for a test that holds a lock or a transaction open. */
        public Connection connection() {
            try {
                return DriverManager.getConnection(jdbcUrl(name), user(), password());
            } catch (SQLException e) {
                throw new IllegalStateException("Could not connect to " + name, e);
            }
        }

        private String jdbcUrl(String database) {
            return "jdbc:mariadb://" + host() + "/" + database;
        }

        private String host() {
            Object port = base.getValue(ConnectionFactoryOptions.PORT);
            return base.getValue(ConnectionFactoryOptions.HOST) + (port != null ? ":" + port : "");
        }

        private String credentials() {
            String password = password();
            return user() + (password.isEmpty() ? "" : ":" + password) + "@";
        }

        @Override
        public void close() {
            execute("DROP DATABASE IF EXISTS " + name);
        }
    }
}
