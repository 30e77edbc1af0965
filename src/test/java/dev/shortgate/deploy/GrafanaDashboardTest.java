package dev.shortgate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The dashboard and its provisioning are well formed; the PromQL name extraction the ITs rely on is right. */
class GrafanaDashboardTest {

    @Test
    void metricNamesAreTheIdentifiersThatAreNotFunctionsLabelsOrVariables() {
        assertThat(Dashboard.metricNames("histogram_quantile(0.99, sum by (le, tier) "
                        + "(rate(shortgate_redirect_seconds_bucket{application=\"shortgate\", instance=~\"$instance\"}"
                        + "[$__rate_interval])))"))
                .containsExactly("shortgate_redirect_seconds_bucket");
        assertThat(Dashboard.metricNames("sum(rate(a_total{x=\"rate(b)\"}[5m])) / sum without (c) (rate(b_count[1m]))"
                        + " > bool 0 and on (instance) up"))
                .containsExactly("a_total", "b_count", "up");
        assertThat(Dashboard.metricNames("max by (state) (resilience4j_circuitbreaker_state) offset 5m"))
                .containsExactly("resilience4j_circuitbreaker_state");
        assertThat(Dashboard.metricNames("process_cpu_usage * 100 + 1e3")).containsExactly("process_cpu_usage");
        assertThat(Dashboard.equalityMatchers("x{cache=\"links\", result=\"hit\", instance=~\"$i\", a=\"$b\"} / y"))
                .isEqualTo(Map.of("x", Map.of("cache", "links", "result", "hit")));
    }

    @Test
    void everyPanelQueriesThroughTheDatasourceVariable() {
        JsonNode dashboard = Dashboard.json();
        assertThat(dashboard.path("uid").asText()).isEqualTo("shortgate-overview");
        assertThat(dashboard.path("templating").path("list")).anySatisfy(variable -> {
            assertThat(variable.path("name").asText()).isEqualTo("DS_PROMETHEUS");
            assertThat(variable.path("type").asText()).isEqualTo("datasource");
            assertThat(variable.path("query").asText()).isEqualTo("prometheus");
        });
        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            assertThat(ids.add(panel.path("id").asInt()))
                    .as("unique panel id " + panel.path("id"))
                    .isTrue();
            if (panel.path("type").asText().equals("row")) {
                continue;
            }
            assertThat(panel.path("datasource").path("uid").asText())
                    .as(panel.path("title").asText())
                    .isEqualTo("${DS_PROMETHEUS}");
            assertThat(panel.path("targets"))
                    .as(panel.path("title").asText())
                    .isNotEmpty()
                    .allSatisfy(
                            target -> assertThat(target.path("expr").asText()).isNotBlank());
        }
        assertThat(Dashboard.queries()).allSatisfy(query -> assertThat(Dashboard.metricNames(query.expr()))
                .as(query.where() + ": " + query.expr())
                .isNotEmpty());
    }

    @Test
    void theDashboardCoversTheIssuesPanels() {
        Set<String> names = new HashSet<>();
        Dashboard.queries().forEach(query -> names.addAll(Dashboard.metricNames(query.expr())));
        assertThat(names)
                .contains(
                        "shortgate_redirect_seconds_count",
                        "shortgate_redirect_seconds_bucket",
                        "shortgate_domain_redirects_total",
                        "cache_gets_total",
                        "shortgate_lookups_total",
                        "shortgate_redis_errors_total",
                        "shortgate_links_creations_total",
                        "shortgate_codegen_collisions_total",
                        "shortgate_visits_buffered",
                        "shortgate_visits_written_total",
                        "shortgate_visits_dropped_total",
                        "shortgate_visits_batch_size_sum",
                        "jvm_memory_used_bytes",
                        "jvm_gc_pause_seconds_sum");
    }

    @Test
    void provisioningPointsAtTheDashboardFolder() throws IOException {
        Path provisioning = Path.of("grafana", "provisioning");
        JsonNode dashboards = Manifests.YAML.readTree(
                provisioning.resolve("dashboards/shortgate.yaml").toFile());
        assertThat(dashboards.path("apiVersion").asInt()).isEqualTo(1);
        assertThat(dashboards.path("providers").get(0).path("type").asText()).isEqualTo("file");
        assertThat(dashboards
                        .path("providers")
                        .get(0)
                        .path("options")
                        .path("path")
                        .asText())
                .isNotBlank();
        JsonNode datasources = Manifests.YAML.readTree(
                provisioning.resolve("datasources/prometheus.yaml").toFile());
        assertThat(datasources.path("datasources").get(0).path("type").asText()).isEqualTo("prometheus");
        assertThat(Files.isRegularFile(Dashboard.FILE)).isTrue();
    }
}
