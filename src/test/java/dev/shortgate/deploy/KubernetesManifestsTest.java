package dev.shortgate.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.shortgate.security.SecurityProperties;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPath;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRule;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.Endpoint;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.StandardEnvironment;

/**
 * The manifests in {@code k8s/} are valid Kubernetes objects, and they agree with what the application really
 * serves and binds: ports, probe paths, the scrape endpoint, environment variable names, and the shutdown budget.
 */
class KubernetesManifestsTest {

    /** Environment variables read by the JVM or the buildpack launcher, not by Spring. */
    static final Set<String> NON_SPRING_ENV = Set.of("JAVA_TOOL_OPTIONS", "BPL_JVM_THREAD_COUNT", "BPL_JVM_HEAD_ROOM");

    static Manifests manifests;
    static Deployment deployment;
    static Container container;
    static StandardEnvironment podEnvironment;

    @BeforeAll
    static void load() {
        manifests = Manifests.load();
        deployment = manifests.one(Deployment.class);
        container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        podEnvironment = AppSettings.environment(containerEnv(Map.of()));
    }

    /** The Secret example as an operator would create it: every placeholder replaced by a real value. */
    static Map<String, String> filledInSecret() {
        Map<String, String> filledIn = new LinkedHashMap<>();
        exampleSecret()
                .getStringData()
                .forEach((key, value) ->
                        filledIn.put(key, value.replace("PLACEHOLDER-CHANGE-ME", "operator-chosen-secret-value")));
        return filledIn;
    }

    /** The container's environment: the ConfigMap (envFrom) then {@code env}, secrets as the given values. */
    static Map<String, String> containerEnv(Map<String, String> secretValues) {
        Map<String, String> env = new LinkedHashMap<>();
        for (var from : container.getEnvFrom()) {
            assertThat(from.getConfigMapRef())
                    .as("envFrom is only used for the ConfigMap")
                    .isNotNull();
            ConfigMap configMap = manifests
                    .named(ConfigMap.class, from.getConfigMapRef().getName())
                    .orElseThrow(() -> new AssertionError("envFrom names a ConfigMap the base does not ship: "
                            + from.getConfigMapRef().getName()));
            env.putAll(configMap.getData());
        }
        for (EnvVar var : container.getEnv()) {
            if (var.getValue() != null) {
                env.put(var.getName(), var.getValue());
            } else if (secretValues.containsKey(var.getName())) {
                env.put(var.getName(), secretValues.get(var.getName()));
            }
        }
        return env;
    }

    @Test
    void everyManifestParsesStrictlyIntoTheKubernetesModel() {
        Set<String> kinds = new TreeSet<>();
        manifests.all().forEach(resource -> kinds.add(resource.getKind()));
        assertThat(kinds)
                .containsExactlyInAnyOrder(
                        "ConfigMap",
                        "Deployment",
                        "Service",
                        "Ingress",
                        "HorizontalPodAutoscaler",
                        "PodDisruptionBudget",
                        "ServiceMonitor");
        assertThat(manifests.all())
                .allSatisfy(
                        resource -> assertThat(resource.getMetadata().getName()).isNotBlank());
    }

    @Test
    void aMisspeltFieldIsRejectedWithItsPath() throws IOException {
        String deploymentYaml = Files.readString(Manifests.DIR.resolve("deployment.yaml"));
        String typo = deploymentYaml.replace("readinessProbe:", "readinesProbe:");
        assertThat(typo).isNotEqualTo(deploymentYaml);
        assertThatThrownBy(() -> Manifests.parse(typo, "deployment.yaml"))
                .isInstanceOf(Manifests.ManifestException.class)
                .hasMessageContaining("spec.template.spec.containers[0].readinesProbe");

        String nested = deploymentYaml.replace("failureThreshold: 60", "failureTreshold: 60");
        assertThatThrownBy(() -> Manifests.parse(nested, "deployment.yaml"))
                .hasMessageContaining("containers[0].startupProbe.failureTreshold");

        String monitor = Files.readString(Manifests.DIR.resolve("servicemonitor.yaml"))
                .replace("interval: 15s", "intervall: 15s");
        assertThatThrownBy(() -> Manifests.parse(monitor, "servicemonitor.yaml"))
                .hasMessageContaining("spec.endpoints[0].intervall");

        assertThatThrownBy(() -> Manifests.parse("apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: x}\n", "x"))
                .hasMessageContaining("unexpected apiVersion/kind apps/v1/Deploymnet");
        assertThatThrownBy(() -> Manifests.parse(
                        "apiVersion: v1\nkind: Service\nmetadata: {name: x}\n"
                                + "spec:\n  ports:\n    - port: eighty\n",
                        "x"))
                .isInstanceOf(Manifests.ManifestException.class);
    }

    @Test
    void theKustomizationListsEveryManifestAndNoSecret() throws IOException {
        Manifests.Kustomization kustomization = Manifests.Kustomization.load();
        assertThat(kustomization.kind()).isEqualTo("Kustomization");
        assertThat(kustomization.apiVersion()).isEqualTo("kustomize.config.k8s.io/v1beta1");
        List<String> files;
        try (Stream<Path> list = Files.list(Manifests.DIR)) {
            files = list.map(p -> p.getFileName().toString())
                    .filter(name -> name.endsWith(".yaml")
                            && !name.equals("kustomization.yaml")
                            && !name.endsWith(".example.yaml"))
                    .sorted()
                    .toList();
        }
        assertThat(kustomization.resources()).containsExactlyInAnyOrderElementsOf(files);
        assertThat(manifests.all(Secret.class))
                .as("real secrets are created out of band")
                .isEmpty();
        assertThat(kustomization.images())
                .extracting(Manifests.Kustomization.Image::name)
                .contains(container.getImage());
    }

    @Test
    void containerPortsAreTheApplicationsPorts() {
        assertThat(container.getPorts())
                .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("http", serverPort()),
                        org.assertj.core.groups.Tuple.tuple("management", managementPort()));
        assertThat(serverPort()).isEqualTo(8080);
        assertThat(managementPort()).isEqualTo(8081);
    }

    @Test
    void probesCallTheActuatorHealthGroupsOnTheManagementPort() {
        assertThat(podEnvironment.getProperty("management.endpoint.health.probes.enabled", Boolean.class))
                .isTrue();
        Map<String, Probe> probes = probes();
        assertThat(probes).containsOnlyKeys("startup", "liveness", "readiness");
        assertThat(probes.get("startup").getHttpGet().getPath()).isEqualTo(healthGroupPath("liveness"));
        assertThat(probes.get("liveness").getHttpGet().getPath()).isEqualTo(healthGroupPath("liveness"));
        assertThat(probes.get("readiness").getHttpGet().getPath()).isEqualTo(healthGroupPath("readiness"));
        probes.forEach((kind, probe) -> {
            assertThat(containerPort(probe.getHttpGet().getPort()))
                    .as(kind + " probe port")
                    .isEqualTo(managementPort());
            assertThat(probe.getHttpGet().getScheme())
                    .as(kind + " probe scheme")
                    .isIn(null, "HTTP");
        });
    }

    @Test
    void prometheusScrapesTheManagementPortsPrometheusEndpoint() {
        assertThat(podEnvironment.getProperty("management.endpoints.web.exposure.include"))
                .contains("prometheus");
        String path = actuatorBasePath() + "/prometheus";

        Map<String, String> annotations =
                deployment.getSpec().getTemplate().getMetadata().getAnnotations();
        assertThat(annotations)
                .containsEntry("prometheus.io/scrape", "true")
                .containsEntry("prometheus.io/port", Integer.toString(managementPort()))
                .containsEntry("prometheus.io/path", path);

        Service service = manifests.one(Service.class);
        ServiceMonitor monitor = manifests.one(ServiceMonitor.class);
        assertThat(service.getMetadata().getLabels())
                .containsAllEntriesOf(monitor.getSpec().getSelector().getMatchLabels());
        assertThat(monitor.getSpec().getEndpoints()).isNotEmpty().allSatisfy((Endpoint endpoint) -> {
            assertThat(endpoint.getPath()).isEqualTo(path);
            ServicePort port = servicePort(service, endpoint.getPort());
            assertThat(containerPort(port.getTargetPort())).isEqualTo(managementPort());
        });
    }

    @Test
    void theServiceSelectsThePodsAndTheIngressRoutesOnlyTheTrafficPort() {
        Map<String, String> podLabels =
                deployment.getSpec().getTemplate().getMetadata().getLabels();
        Service service = manifests.one(Service.class);
        assertThat(podLabels).containsAllEntriesOf(service.getSpec().getSelector());
        assertThat(podLabels)
                .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());

        Ingress ingress = manifests.one(Ingress.class);
        assertThat(ingress.getSpec().getIngressClassName()).isEqualTo("nginx");
        assertThat(ingress.getSpec().getDefaultBackend()).isNull();
        List<HTTPIngressPath> paths = new ArrayList<>();
        for (IngressRule rule : ingress.getSpec().getRules()) {
            paths.addAll(rule.getHttp().getPaths());
        }
        assertThat(paths).isNotEmpty().allSatisfy(path -> {
            var backend = path.getBackend().getService();
            assertThat(backend.getName()).isEqualTo(service.getMetadata().getName());
            ServicePort port = backend.getPort().getName() != null
                    ? servicePort(service, backend.getPort().getName())
                    : service.getSpec().getPorts().stream()
                            .filter(p -> p.getPort().equals(backend.getPort().getNumber()))
                            .findFirst()
                            .orElseThrow();
            assertThat(containerPort(port.getTargetPort()))
                    .as("ingress backend")
                    .isEqualTo(serverPort())
                    .isNotEqualTo(managementPort());
        });
    }

    @Test
    void theIngressLetsThroughEveryBodyTheApplicationAccepts() {
        SecurityProperties security =
                Binder.get(podEnvironment).bindOrCreate("shortgate.security", SecurityProperties.class);
        String limit = manifests
                .one(Ingress.class)
                .getMetadata()
                .getAnnotations()
                .get("nginx.ingress.kubernetes.io/proxy-body-size");
        assertThat(limit).as("proxy-body-size annotation").matches("\\d+[km]");
        long bytes =
                Long.parseLong(limit.substring(0, limit.length() - 1)) * (limit.endsWith("m") ? 1024 * 1024 : 1024);
        // Larger than the app's limits, so an oversized body gets the app's 413 problem, not nginx's HTML page.
        assertThat(bytes).isGreaterThan(security.maxBatchBodySize()).isGreaterThan(security.maxBodySize());
    }

    @Test
    void everyEnvironmentVariableBindsToAPropertyTheApplicationReads() {
        Set<String> known = AppSettings.knownPropertyNames();
        assertThat(known)
                .contains(
                        "spring.r2dbc.url",
                        "spring.data.redis.cluster.nodes",
                        "shortgate.base-url",
                        "shortgate.codegen.secret");
        Map<String, List<String>> placeholders = AppSettings.placeholderReferences();
        Map<String, List<String>> bindings = new LinkedHashMap<>();
        List<String> unbound = new ArrayList<>();
        for (String name : envNames()) {
            if (NON_SPRING_ENV.contains(name)) {
                continue;
            }
            List<String> properties = new ArrayList<>(AppSettings.propertiesSetBy(name, known));
            properties.addAll(placeholders.getOrDefault(name, List.of()));
            if (properties.isEmpty()) {
                unbound.add(name);
            }
            bindings.put(name, properties);
        }
        assertThat(unbound)
                .as("environment variables that set no property the application reads " + "(all bindings: " + bindings
                        + ")")
                .isEmpty();
        assertThat(bindings)
                .containsEntry("SHORTGATE_BASE_URL", List.of("shortgate.base-url"))
                .containsEntry("SHORTGATE_CODEGEN_SECRET", List.of("shortgate.codegen.secret"))
                .containsEntry("SPRING_R2DBC_PASSWORD", List.of("spring.r2dbc.password"))
                .containsEntry("SPRING_DATA_REDIS_CLUSTER_NODES", List.of("spring.data.redis.cluster.nodes"))
                .containsEntry("SHORTGATE_REDIRECT_NEARCACHE_TTL", List.of("shortgate.redirect.near-cache.ttl"))
                .containsEntry("SHORTGATE_ADMIN_KEY", List.of("shortgate.security.admin-key"));
        assertThat(AppSettings.propertiesSetBy("SHORTGATE_CODEGEN_SECRETS", known))
                .as("a misspelt name")
                .isEmpty();
        assertThat(AppSettings.propertiesSetBy("SPRING_R2DBC_PASWORD", known))
                .as("a misspelt name")
                .isEmpty();
    }

    @Test
    void theConfigMapAndSecretExampleBindToTheApplicationsSettingsOnceTheSecretsAreFilledIn() {
        Map<String, String> filledIn = filledInSecret();
        StandardEnvironment environment = AppSettings.environment(containerEnv(filledIn));
        Binder binder = Binder.get(environment);
        AppSettings.configurationProperties()
                .forEach((prefix, type) -> assertThat(binder.bindOrCreate(prefix, Bindable.of(type)))
                        .as(prefix)
                        .isNotNull());
        assertThat(environment.getProperty("shortgate.base-url")).startsWith("https://");
        assertThat(environment.getProperty("spring.r2dbc.url")).startsWith("r2dbc:mysql://");
        assertThat(environment.getProperty("shortgate.security.admin-key"))
                .isEqualTo(filledIn.get("SHORTGATE_ADMIN_KEY"));
        assertThat(binder.bind("shortgate.redirect.near-cache.ttl", Duration.class)
                        .get())
                .isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theSecretExampleAppliedAsItIsStopsTheApplicationAtStartup() {
        Binder binder =
                Binder.get(AppSettings.environment(containerEnv(exampleSecret().getStringData())));
        for (String prefix : List.of("shortgate.security", "shortgate.codegen", "shortgate.visit")) {
            assertThatThrownBy(() -> binder.bindOrCreate(
                            prefix,
                            Bindable.of(AppSettings.configurationProperties().get(prefix))))
                    .as(prefix)
                    .hasRootCauseMessage(prefix
                            + (switch (prefix) {
                                case "shortgate.security" -> ".admin-key";
                                case "shortgate.codegen" -> ".secret";
                                default -> ".client-id-secret";
                            })
                            + " still holds the example's placeholder; set a real secret");
        }
    }

    @Test
    void theSecretExampleHoldsEveryReferencedKeyAsAPlaceholder() {
        Secret example = exampleSecret();
        Set<String> referenced = new TreeSet<>();
        for (EnvVar var : container.getEnv()) {
            if (var.getValueFrom() != null) {
                var ref = var.getValueFrom().getSecretKeyRef();
                assertThat(ref).as(var.getName() + " comes from the Secret").isNotNull();
                assertThat(ref.getName()).isEqualTo(example.getMetadata().getName());
                referenced.add(ref.getKey());
            }
        }
        assertThat(referenced).contains("SPRING_R2DBC_PASSWORD", "SHORTGATE_CODEGEN_SECRET", "SHORTGATE_ADMIN_KEY");
        Set<String> required = new TreeSet<>(referenced);
        container.getEnv().stream()
                .filter(v -> v.getValueFrom() != null
                        && Boolean.TRUE.equals(
                                v.getValueFrom().getSecretKeyRef().getOptional()))
                .forEach(v -> required.remove(v.getValueFrom().getSecretKeyRef().getKey()));
        assertThat(example.getStringData().keySet()).containsAll(required);
        assertThat(example.getStringData())
                .allSatisfy((key, value) -> assertThat(value).contains("PLACEHOLDER"));
        assertThat(example.getData()).isNullOrEmpty();
    }

    @Test
    void shutdownOutlastsPreStopPlusSpringsShutdownPhases() {
        int preStop =
                container.getLifecycle().getPreStop().getSleep().getSeconds().intValue();
        Duration phase = Binder.get(podEnvironment)
                .bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
                .get();
        long grace = deployment.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
        assertThat(podEnvironment.getProperty("server.shutdown")).isEqualTo("graceful");
        assertThat(preStop).isPositive();
        // Two phases: the web server drains, then the visit buffer flushes after it stops taking requests.
        assertThat(grace).isGreaterThan(preStop + 2 * phase.toSeconds());
    }

    @Test
    void thePodRunsHardened() {
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getEnableServiceLinks())
                .as("service links would inject SHORTGATE_* variables")
                .isFalse();
        var security = container.getSecurityContext();
        assertThat(security.getReadOnlyRootFilesystem()).isTrue();
        assertThat(security.getAllowPrivilegeEscalation()).isFalse();
        assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();
        VolumeMount tmp = container.getVolumeMounts().stream()
                .filter(m -> m.getMountPath().equals("/tmp"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no writable /tmp"));
        assertThat(pod.getVolumes()).anySatisfy(volume -> {
            assertThat(volume.getName()).isEqualTo(tmp.getName());
            assertThat(volume.getEmptyDir()).isNotNull();
        });
    }

    @Test
    void jvmMemoryFitsTheContainerLimit() {
        Map<String, Quantity> requests = container.getResources().getRequests();
        Map<String, Quantity> limits = container.getResources().getLimits();
        assertThat(requests).containsKeys("cpu", "memory");
        assertThat(limits).containsKeys("cpu", "memory");
        long limit = Quantity.getAmountInBytes(limits.get("memory")).longValueExact();
        assertThat(Quantity.getAmountInBytes(requests.get("memory")).longValueExact())
                .as("memory request equals the limit, so a JVM sized to the limit is never overcommitted")
                .isEqualTo(limit);

        String options = envValue("JAVA_TOOL_OPTIONS");
        double heapPercent = Double.parseDouble(flag(options, "-XX:MaxRAMPercentage=([0-9.]+)"));
        long heap = (long) (limit * heapPercent / 100);
        long direct = bytes(flag(options, "-XX:MaxDirectMemorySize=(\\w+)"));
        long metaspace = bytes(flag(options, "-XX:MaxMetaspaceSize=(\\w+)"));
        long codeCache = bytes(flag(options, "-XX:ReservedCodeCacheSize=(\\w+)"));
        long stacks = bytes(flag(options, "-Xss(\\w+)")) * Long.parseLong(envValue("BPL_JVM_THREAD_COUNT"));
        assertThat(options).contains("-XX:+ExitOnOutOfMemoryError");
        assertThat(heap + direct + metaspace + codeCache + stacks)
                .as(
                        "heap + direct + metaspace + code cache + stacks leaves at least 10% of the limit for GC and native")
                .isLessThanOrEqualTo((long) (limit * 0.9));
    }

    @Test
    void theCollectorIsNamedBecauseTheLimitIsBelowWhatTheJvmCallsAServer() {
        long limit = Quantity.getAmountInBytes(
                        container.getResources().getLimits().get("memory"))
                .longValueExact();
        // below 2 CPUs or 1792 MB the JVM (17 and 25) picks the Serial collector unless one is named
        assertThat(limit).isLessThan(1792L * 1024 * 1024);
        assertThat(envValue("JAVA_TOOL_OPTIONS")).containsPattern("-XX:\\+Use(G1|Z|Parallel|Serial)GC");
    }

    @Test
    void theAutoscalerAndDisruptionBudgetKeepThreePods() {
        HorizontalPodAutoscaler hpa = manifests.one(HorizontalPodAutoscaler.class);
        assertThat(hpa.getApiVersion()).isEqualTo("autoscaling/v2");
        assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
        assertThat(hpa.getSpec().getScaleTargetRef().getName())
                .isEqualTo(deployment.getMetadata().getName());
        assertThat(hpa.getSpec().getMinReplicas())
                .isEqualTo(deployment.getSpec().getReplicas())
                .isEqualTo(3);
        assertThat(hpa.getSpec().getMetrics())
                .filteredOn(metric -> metric.getResource() != null)
                .anySatisfy(metric -> {
                    assertThat(metric.getResource().getName()).isEqualTo("cpu");
                    assertThat(metric.getResource().getTarget().getType()).isEqualTo("Utilization");
                });
        PodDisruptionBudget pdb = manifests.one(PodDisruptionBudget.class);
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
        assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(pdb.getSpec().getMinAvailable())
                .as("one of maxUnavailable and minAvailable")
                .isNull();
    }

    @Test
    void theAutoscalerScalesOnCpuAndRedirectsPerPodFromPrometheusAndNothingElse() throws IOException {
        HorizontalPodAutoscaler hpa = manifests.one(HorizontalPodAutoscaler.class);
        assertThat(hpa.getSpec().getMetrics())
                .extracting(metric -> metric.getType())
                .containsExactly("Resource", "Pods");
        var pods = hpa.getSpec().getMetrics().get(1).getPods();
        assertThat(pods.getTarget().getType()).isEqualTo("AverageValue");
        assertThat(pods.getTarget().getAverageValue().getNumericalAmount()).isPositive();

        // the adapter's rule makes that metric from a series the application exports
        var rules = Manifests.YAML
                .readTree(
                        Manifests.DIR.resolve("prometheus-adapter/values.yaml").toFile())
                .path("rules")
                .path("custom");
        assertThat(rules).singleElement().satisfies(rule -> {
            assertThat(rule.path("name").path("as").asText())
                    .isEqualTo(pods.getMetric().getName());
            assertThat(rule.path("seriesQuery").asText()).startsWith("shortgate_redirect_seconds_count{");
            assertThat(rule.path("metricsQuery").asText()).contains("rate(<<.Series>>");
        });
    }

    @Test
    void theRedisClusterOverlayPointsThePodsAtTheClusterOnly() throws Exception {
        var objects = overlay("k8s-overlays/redis-cluster");
        Deployment overlaid = objects.stream()
                .filter(Deployment.class::isInstance)
                .map(Deployment.class::cast)
                .findFirst()
                .orElseThrow();
        ConfigMap config = objects.stream()
                .filter(ConfigMap.class::isInstance)
                .map(ConfigMap.class::cast)
                .findFirst()
                .orElseThrow();

        Map<String, String> env = new LinkedHashMap<>(config.getData());
        List<EnvVar> vars = overlaid.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getEnv();
        assertThat(vars)
                .extracting(EnvVar::getName)
                .doesNotContain("SPRING_DATA_REDIS_URL", "SPRING_DATA_REDIS_CLUSTER_NODES")
                .contains("SPRING_DATA_REDIS_PASSWORD");
        vars.forEach(var -> env.put(
                var.getName(),
                var.getValue() != null
                        ? var.getValue()
                        : filledInSecret().getOrDefault(var.getName(), "from-the-secret")));
        StandardEnvironment environment = AppSettings.environment(env);

        assertThat(dev.shortgate.system.redis.RedisConfigured.OnRedis.isCluster(environment))
                .isTrue();
        assertThat(environment.getProperty("spring.data.redis.url")).isNull();
        assertThat(Binder.get(environment)
                        .bind("spring.data.redis.cluster.nodes", Bindable.listOf(String.class))
                        .get())
                .hasSizeGreaterThanOrEqualTo(3)
                .allMatch(node -> node.matches("[a-z0-9.-]+:\\d+"));
    }

    @Test
    void theManyDomainsOverlayRoutesEveryHostToTheTrafficPortAndRefusesOtherHosts() throws Exception {
        var objects = overlay("k8s-overlays/many-domains");
        Ingress ingress = objects.stream()
                .filter(Ingress.class::isInstance)
                .map(Ingress.class::cast)
                .findFirst()
                .orElseThrow();
        ConfigMap config = objects.stream()
                .filter(ConfigMap.class::isInstance)
                .map(ConfigMap.class::cast)
                .findFirst()
                .orElseThrow();

        assertThat(ingress.getSpec().getRules())
                .extracting(IngressRule::getHost)
                .containsExactly("go.example.com", "ex.co", "ex.de");
        assertThat(ingress.getSpec().getRules())
                .allSatisfy(rule -> assertThat(rule.getHttp().getPaths())
                        .singleElement()
                        .satisfies(path -> {
                            assertThat(path.getPath()).isEqualTo("/");
                            assertThat(path.getBackend().getService().getPort().getName())
                                    .isEqualTo("http");
                        }));
        assertThat(ingress.getSpec().getTls()).singleElement().satisfies(tls -> assertThat(tls.getHosts())
                .containsExactly("go.example.com", "ex.co", "ex.de"));

        Map<String, String> env = new LinkedHashMap<>(config.getData());
        env.putAll(filledInSecret());
        StandardEnvironment environment = AppSettings.environment(env);
        Binder binder = Binder.get(environment);
        AppSettings.configurationProperties()
                .forEach((prefix, type) -> assertThat(binder.bindOrCreate(prefix, Bindable.of(type)))
                        .as(prefix)
                        .isNotNull());
        assertThat(environment.getProperty("shortgate.base-url"))
                .as("the default domain is one of the ingress's hosts")
                .isEqualTo("https://go.example.com");
        assertThat(environment.getProperty("shortgate.domains.unknown-host")).isEqualTo("refuse");
    }

    /** The objects {@code kubectl kustomize} renders from an overlay: as many as the base, each strictly valid. */
    private List<HasMetadata> overlay(String directory) throws IOException, InterruptedException {
        Process kubectl;
        try {
            kubectl = new ProcessBuilder("kubectl", "kustomize", directory)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            Assumptions.abort("kubectl is not installed");
            throw e;
        }
        String rendered = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(kubectl.exitValue()).isZero();
        List<HasMetadata> objects = Manifests.parse(rendered, "kubectl kustomize " + directory);
        assertThat(objects).hasSameSizeAs(manifests.all());
        return objects;
    }

    /** With kubectl on the PATH, the rendered kustomization is the same set of strictly valid objects. */
    @Test
    void kubectlRendersTheKustomization() throws Exception {
        Process kubectl;
        try {
            kubectl = new ProcessBuilder("kubectl", "kustomize", Manifests.DIR.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            Assumptions.abort("kubectl is not installed");
            return;
        }
        String rendered = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(kubectl.exitValue()).isZero();
        var objects = Manifests.parse(rendered, "kubectl kustomize");
        assertThat(objects).hasSameSizeAs(manifests.all());
        assertThat(objects).allSatisfy(o -> assertThat(o.getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/part-of", "shortgate"));
        Deployment rendered0 = objects.stream()
                .filter(Deployment.class::isInstance)
                .map(Deployment.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(rendered0
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage())
                .startsWith("ghcr.io/example/shortgate:");
    }

    // --- helpers

    static Secret exampleSecret() {
        return (Secret)
                Manifests.parse(Manifests.DIR.resolve("secret.example.yaml")).get(0);
    }

    static Map<String, Probe> probes() {
        Map<String, Probe> probes = new LinkedHashMap<>();
        if (container.getStartupProbe() != null) {
            probes.put("startup", container.getStartupProbe());
        }
        if (container.getLivenessProbe() != null) {
            probes.put("liveness", container.getLivenessProbe());
        }
        if (container.getReadinessProbe() != null) {
            probes.put("readiness", container.getReadinessProbe());
        }
        return probes;
    }

    /** Every HTTP path a probe or scraper of these manifests calls on the management port. */
    static Set<String> managementPaths() {
        Set<String> paths = new TreeSet<>();
        probes().values().stream()
                .map(Probe::getHttpGet)
                .map(HTTPGetAction::getPath)
                .forEach(paths::add);
        paths.add(deployment
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getAnnotations()
                .get("prometheus.io/path"));
        manifests.one(ServiceMonitor.class).getSpec().getEndpoints().forEach(e -> paths.add(e.getPath()));
        return paths;
    }

    static String healthGroupPath(String group) {
        return actuatorBasePath() + "/health/" + group;
    }

    static String actuatorBasePath() {
        return podEnvironment.getProperty("management.endpoints.web.base-path", "/actuator");
    }

    static int serverPort() {
        return podEnvironment.getRequiredProperty("server.port", Integer.class);
    }

    static int managementPort() {
        return podEnvironment.getRequiredProperty("management.server.port", Integer.class);
    }

    /** The container port a probe, Service or Ingress port refers to, by name or number. */
    static int containerPort(IntOrString port) {
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        return container.getPorts().stream()
                .filter(p -> port.getStrVal().equals(p.getName()))
                .map(ContainerPort::getContainerPort)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no container port named " + port.getStrVal()));
    }

    static ServicePort servicePort(Service service, String name) {
        return service.getSpec().getPorts().stream()
                .filter(p -> name.equals(p.getName()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the Service has no port named " + name));
    }

    static Set<String> envNames() {
        Set<String> names = new TreeSet<>(containerEnv(Map.of()).keySet());
        container.getEnv().forEach(var -> names.add(var.getName()));
        return names;
    }

    static String envValue(String name) {
        return container.getEnv().stream()
                .filter(v -> v.getName().equals(name))
                .map(EnvVar::getValue)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no env " + name));
    }

    static String flag(String options, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(options);
        assertThat(matcher.find()).as("JAVA_TOOL_OPTIONS has " + regex).isTrue();
        return matcher.group(1);
    }

    static long bytes(String size) {
        Matcher matcher = Pattern.compile("(\\d+)([kKmMgG]?)").matcher(size);
        assertThat(matcher.matches()).as(size).isTrue();
        long value = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2).toLowerCase(java.util.Locale.ROOT)) {
            case "k" -> value << 10;
            case "m" -> value << 20;
            case "g" -> value << 30;
            default -> value;
        };
    }
}
