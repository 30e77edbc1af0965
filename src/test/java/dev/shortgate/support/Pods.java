package dev.shortgate.support;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The applications ("pods") an integration test class runs against, on a MariaDB database of the class's own and,
 * with {@link #withRedis()}, the test Redis under a key prefix of the class's own. They start before all tests and
 * close after them, pods before the database, last started first; a start that fails half-way closes what it had
 * started. Register it in a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final Pods pods = Pods.onMariaDb().withRedis().with("shortgate.redirect.near-cache.ttl", "10m").count(2);
 * }</pre>
 *
 * <p>As with {@link TestServers}, the class skips when the test servers are not named, unless
 * {@code SHORTGATE_TEST_REQUIRE_SERVICES=true}, where it fails.
 */
public final class Pods implements BeforeAllCallback, AfterAllCallback {

    private boolean redis;
    private boolean cluster;
    private boolean galera;
    private final Map<String, Object> settings = new LinkedHashMap<>();
    private int count = 1;

    private final Deque<AutoCloseable> open = new ArrayDeque<>();
    private final List<RunningApp> apps = new ArrayList<>();
    private TestServers.Database database;
    private String redisPrefix;
    private Map<String, Object> properties;

    private Pods() {}

    /** One pod on a new MariaDB database, without Redis. */
    public static Pods onMariaDb() {
        return new Pods();
    }

    /**
     * Pods on a new database of the test Galera cluster ({@link TestServers#galeraUrl()}), each on a node of its own:
     * pod A through haproxy's listener pinned to node 1, pod B through the one pinned to node 2 (a third pod on node 1
     * again). Flyway migrates through node 1's listener for every pod (docs/adr/0021-galera.md: Flyway's lock is a
     * row lock of one node on Galera). The class skips, or fails in CI, when no cluster is named.
     */
    public static Pods onGalera() {
        Pods pods = new Pods();
        pods.galera = true;
        return pods;
    }

    /** Points the pods at the test Redis, under a new key prefix; the class skips when no Redis is named. */
    public Pods withRedis() {
        this.redis = true;
        return this;
    }

    /**
     * Points the pods at the test Redis Cluster ({@code spring.data.redis.cluster.nodes}) instead, under a new key
     * prefix; the class skips when no cluster is named.
     */
    public Pods withRedisCluster() {
        this.redis = true;
        this.cluster = true;
        return this;
    }

    /** Starts the pods with this property too; it wins over the database and Redis properties. */
    public Pods with(String name, Object value) {
        settings.put(name, value);
        return this;
    }

    /** Starts this many pods, all with the same properties. */
    public Pods count(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        this.count = count;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        try {
            // Skip before anything is created.
            String redisUrl = !redis ? null : cluster ? TestServers.redisClusterNodes() : TestServers.redisUrl();
            List<String> pinned = galera ? TestServers.galeraPinnedUrls() : List.of();
            database = opened(galera ? TestServers.newGaleraDatabase() : TestServers.newDatabase());
            Map<String, Object> all = new HashMap<>(database.properties());
            if (galera) {
                // Three database nodes and haproxy share this machine with the pods: opening a connection under load
                // takes longer than the pool's default 2 s, so the pods open their connections up front and wait
                // longer for one (what is tested is how writes on two nodes settle, not how fast a socket opens).
                all.put("spring.r2dbc.pool.initial-size", "10");
                all.put("spring.r2dbc.pool.max-acquire-time", "8s");
                all.put("spring.r2dbc.pool.max-create-connection-time", "8s");
                all.put("spring.flyway.url", database.jdbcUrlOn(pinned.get(0)));
                all.put("spring.flyway.user", database.user());
                all.put("spring.flyway.password", database.password());
            }
            if (redis) {
                redisPrefix = TestServers.newRedisPrefix();
                all.put(cluster ? "spring.data.redis.cluster.nodes" : "spring.data.redis.url", redisUrl);
                all.put("shortgate.redirect.redis.key-prefix", redisPrefix);
            }
            all.putAll(settings);
            properties = Collections.unmodifiableMap(all);
            for (int i = 0; i < count; i++) {
                Map<String, Object> own = properties;
                if (galera) {
                    own = new HashMap<>(properties);
                    own.put("spring.r2dbc.url", database.r2dbcUrlOn(pinned.get(i % pinned.size())));
                }
                apps.add(opened(RunningApp.start(own)));
            }
        } catch (RuntimeException | Error e) {
            try {
                closeAll();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        closeAll();
    }

    /** The class's database. */
    public TestServers.Database database() {
        return started(database);
    }

    /** The key prefix the pods use in Redis. */
    public String redisPrefix() {
        if (!redis) {
            throw new IllegalStateException("These pods run without Redis; add withRedis()");
        }
        return started(redisPrefix);
    }

    /** The properties every pod was started with, on top of the application's defaults. */
    public Map<String, Object> properties() {
        return started(properties);
    }

    /** The pod, where the class starts only one. */
    public RunningApp app() {
        if (count != 1) {
            throw new IllegalStateException("There are " + count + " pods; use a() and b()");
        }
        return pod(0);
    }

    /** The first pod. */
    public RunningApp a() {
        return pod(0);
    }

    /** The second pod; needs {@code count(2)} or more. */
    public RunningApp b() {
        return pod(1);
    }

    private RunningApp pod(int index) {
        if (index >= count) {
            throw new IllegalStateException("Only " + count + " pod(s) were asked for; use count(" + (index + 1) + ")");
        }
        started(properties);
        return apps.get(index);
    }

    private <T extends AutoCloseable> T opened(T resource) {
        open.push(resource);
        return resource;
    }

    private static <T> T started(T value) {
        if (value == null) {
            throw new IllegalStateException("The pods start before all tests; register them with @RegisterExtension");
        }
        return value;
    }

    /** Closes what is open, last opened first, and goes on past a failure to close the rest. */
    private void closeAll() {
        RuntimeException failure = null;
        while (!open.isEmpty()) {
            try {
                open.pop().close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("Could not close every pod and the database", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        apps.clear();
        database = null;
        redisPrefix = null;
        properties = null;
        if (failure != null) {
            throw failure;
        }
    }
}
