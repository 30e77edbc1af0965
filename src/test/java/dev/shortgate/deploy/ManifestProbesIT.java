package dev.shortgate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The packaged jar, started with the Deployment's environment (ConfigMap, JVM flags and the Secret example with its
 * placeholders filled in; the external database and Redis left out, so it runs embedded), answers every path the
 * manifests' probes and scrapers call, on the management port only, and stops within the grace period.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ManifestProbesIT {

    static PackagedJar app;
    static long memoryLimit;

    @BeforeAll
    static void start() {
        KubernetesManifestsTest.load();
        var container = KubernetesManifestsTest.container;
        memoryLimit = Quantity.getAmountInBytes(
                        container.getResources().getLimits().get("memory"))
                .longValueExact();
        Map<String, String> env =
                new LinkedHashMap<>(KubernetesManifestsTest.containerEnv(KubernetesManifestsTest.filledInSecret()));
        // External services: the ConfigMap names cluster hosts this machine cannot reach; run embedded instead.
        env.keySet()
                .removeIf(name -> name.startsWith("SPRING_R2DBC_URL")
                        || name.startsWith("SPRING_R2DBC_USERNAME")
                        || name.startsWith("SPRING_R2DBC_PASSWORD")
                        || name.startsWith("SPRING_DATA_REDIS_"));
        // The JVM sees the host's memory here; MaxRAM makes it size itself as it would under the container limit.
        env.put("JAVA_TOOL_OPTIONS", env.get("JAVA_TOOL_OPTIONS") + " -XX:MaxRAM=" + memoryLimit);
        app = PackagedJar.start(env, List.of());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    @Order(1)
    void everyPathTheManifestsCallAnswersOkOnTheManagementPort() {
        var paths = KubernetesManifestsTest.managementPaths();
        assertThat(paths).contains("/actuator/health/liveness", "/actuator/health/readiness", "/actuator/prometheus");
        for (String path : paths) {
            HttpResponse<String> response = app.get(app.managementPort(), path);
            assertThat(response.statusCode())
                    .as("GET " + path + " on the management port: " + response.body())
                    .isEqualTo(200);
        }
        // a redirect timer is registered when its first request is answered (ADR 0022)
        assertThat(app.get(app.port(), "/no-such-code").statusCode()).isEqualTo(404);
        assertThat(app.get(app.managementPort(), "/actuator/prometheus").body())
                .contains("shortgate_redirect_seconds_bucket");
    }

    @Test
    @Order(2)
    void theTrafficPortServesNoActuatorEndpoint() {
        for (String path : KubernetesManifestsTest.managementPaths()) {
            assertThat(app.get(app.port(), path).statusCode())
                    .as("GET " + path + " on the traffic port")
                    .isEqualTo(404);
        }
    }

    @Test
    @Order(3)
    void theJvmSizesItsHeapFromTheContainerLimit() {
        assertThat(app.logTail()).contains("Picked up JAVA_TOOL_OPTIONS: -XX:MaxRAMPercentage=");
        String scrape = app.get(app.managementPort(), "/actuator/prometheus").body();
        double maxHeap = scrape.lines()
                .filter(line -> line.startsWith("jvm_memory_max_bytes{") && line.contains("area=\"heap\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .max()
                .orElseThrow();
        String percent = KubernetesManifestsTest.flag(
                KubernetesManifestsTest.envValue("JAVA_TOOL_OPTIONS"), "-XX:MaxRAMPercentage=([0-9.]+)");
        assertThat(maxHeap)
                .isCloseTo(
                        memoryLimit * Double.parseDouble(percent) / 100,
                        org.assertj.core.data.Percentage.withPercentage(2));
    }

    @Test
    @Order(4)
    void sigtermStopsTheAppWithinTheGracePeriod() {
        var pod = KubernetesManifestsTest.deployment.getSpec().getTemplate().getSpec();
        long grace = pod.getTerminationGracePeriodSeconds();
        long preStop = KubernetesManifestsTest.container
                .getLifecycle()
                .getPreStop()
                .getSleep()
                .getSeconds();
        assertThat(app.terminate(Duration.ofSeconds(grace - preStop)))
                .as("exits within terminationGracePeriodSeconds - preStop after SIGTERM")
                .isTrue();
        assertThat(app.logTail()).contains("Graceful shutdown complete");
    }
}
