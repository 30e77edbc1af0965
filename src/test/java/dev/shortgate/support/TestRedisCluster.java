package dev.shortgate.support;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;

/**
 * The test's own view of the test Redis Cluster ({@link TestServers#redisClusterNodes()}): read keys, find the master
 * of a key's slot, kill it (SIGKILL, as a crash) and start it again with its own settings, so it rejoins as a replica
 * and the cluster has three replicas again for the next test.
 */
public final class TestRedisCluster implements AutoCloseable {

    private final List<RedisURI> seeds = new ArrayList<>();
    private final ClientResources resources = DefaultClientResources.create();
    private final RedisClusterClient client;
    private final StatefulRedisClusterConnection<String, String> connection;
    private final List<List<String>> killed = new ArrayList<>();

    public TestRedisCluster(String nodes) {
        for (String node : nodes.split(",")) {
            String[] hostPort = node.trim().split(":");
            seeds.add(RedisURI.create(hostPort[0], Integer.parseInt(hostPort[1])));
        }
        client = RedisClusterClient.create(resources, seeds);
        client.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enablePeriodicRefresh(Duration.ofSeconds(1))
                        .enableAllAdaptiveRefreshTriggers()
                        .build())
                .build());
        connection = client.connect();
    }

    /** The string at a key, if any; asked of the slot's master as the test's client currently knows it. */
    public Optional<String> get(String key) {
        return Optional.ofNullable(connection.sync().get(key));
    }

    /** Whether the key exists. */
    public boolean exists(String key) {
        return connection.sync().exists(key) == 1;
    }

    /** The topology as a node that is up sees it now. */
    public Partitions topology() {
        for (RedisURI seed : seeds) {
            try (RedisClient single = RedisClient.create(resources, seed);
                    StatefulRedisConnection<String, String> node = single.connect()) {
                node.setTimeout(Duration.ofSeconds(2));
                return ClusterPartitionParser.parse(node.sync().clusterNodes());
            } catch (RuntimeException down) {
                // the killed node: ask the next one
            }
        }
        throw new IllegalStateException("No node of the test cluster answers");
    }

    /** The healthy master that serves a key's slot now, if the cluster has one. */
    public Optional<RedisClusterNode> masterOf(String key) {
        int slot = SlotHash.getSlot(key);
        return topology().getPartitions().stream()
                .filter(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM)
                        && !node.is(RedisClusterNode.NodeFlag.FAIL)
                        && !node.is(RedisClusterNode.NodeFlag.EVENTUAL_FAIL)
                        && node.hasSlot(slot))
                .findFirst();
    }

    /** Kills the master of a key's slot with SIGKILL and returns its port; {@link #close()} starts it again. */
    public int killMasterOf(String key) {
        RedisClusterNode master = masterOf(key).orElseThrow(() -> new IllegalStateException("No master for " + key));
        RedisURI uri = master.getUri();
        List<String> command;
        long pid;
        try (RedisClient single = RedisClient.create(resources, uri);
                StatefulRedisConnection<String, String> node = single.connect()) {
            Map<String, String> config = node.sync()
                    .configGet(
                            "port", "bind", "dir", "cluster-config-file", "cluster-node-timeout", "pidfile", "logfile");
            command = List.of(
                    "redis-server",
                    "--port",
                    config.get("port"),
                    "--bind",
                    config.get("bind").split(" ")[0],
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    config.get("cluster-config-file"),
                    "--cluster-node-timeout",
                    config.get("cluster-node-timeout"),
                    "--dir",
                    config.get("dir"),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "yes",
                    "--pidfile",
                    config.get("pidfile"),
                    "--logfile",
                    config.get("logfile"));
            String info = node.sync().info("server");
            pid = info.lines()
                    .filter(line -> line.startsWith("process_id:"))
                    .mapToLong(line -> Long.parseLong(
                            line.substring("process_id:".length()).trim()))
                    .findFirst()
                    .orElseThrow();
        }
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("No process " + pid));
        killed.add(command);
        process.destroyForcibly();
        process.onExit().join();
        return uri.getPort();
    }

    /** Starts every killed node again (it rejoins as a replica), then closes the test's client. */
    @Override
    public void close() {
        try {
            for (List<String> command : killed) {
                Process start = new ProcessBuilder(command).inheritIO().start();
                if (start.waitFor() != 0) {
                    throw new IllegalStateException("Could not restart the killed node: " + command);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not restart the killed node", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            killed.clear();
            connection.close();
            client.shutdown();
            resources.shutdown();
        }
    }
}
