package dev.shortgate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every metric the Grafana dashboard queries exists in the application's Prometheus scrape after some traffic,
 * with the label values the queries select: a panel never shows "No data" because a name is wrong.
 *
 * <p>The jar runs embedded, with the Redis tier on when {@code SHORTGATE_TEST_REDIS_URL} names a Redis (CI sets
 * it). Without Redis, the meters of the Redis tier do not exist and are listed but not required.
 */
class DashboardMetricsIT {

    /** Meters that exist only while the Redis tier is on. */
    static boolean redisOnly(String metric) {
        return metric.startsWith("resilience4j_circuitbreaker_") || metric.startsWith("shortgate_redis_");
    }

    static PackagedJar app;
    static boolean redis;
    static String scrape;

    @BeforeAll
    static void startAndDriveTraffic() {
        Map<String, String> env = new HashMap<>();
        // A modest heap, so the young GCs that register jvm_gc_pause happen during this short run; not smaller:
        // building the user-agent parser needs a few hundred MB, and a heap near that limit thrashes in GC.
        env.put("JAVA_TOOL_OPTIONS", "-Xmx512m");
        env.put("SHORTGATE_ADMIN_KEY", "dashboard-it-" + UUID.randomUUID());
        String redisUrl = System.getenv("SHORTGATE_TEST_REDIS_URL");
        redis = redisUrl != null && !redisUrl.isBlank();
        if (!redis && Boolean.parseBoolean(System.getenv("SHORTGATE_TEST_REQUIRE_SERVICES"))) {
            throw new IllegalStateException(
                    "SHORTGATE_TEST_REDIS_URL is not set, and SHORTGATE_TEST_REQUIRE_SERVICES=true");
        }
        List<String> args = new ArrayList<>();
        // The pool strategy, so the code pool's meters exist too; small marks keep its filler's work light.
        args.add("--shortgate.codegen.strategy=pool");
        args.add("--shortgate.codegen.pool.low-water=200");
        args.add("--shortgate.codegen.pool.high-water=1000");
        if (redis) {
            env.put("SPRING_DATA_REDIS_URL", redisUrl);
            args.add("--shortgate.redirect.redis.key-prefix=sgit:"
                    + UUID.randomUUID().toString().substring(0, 8) + ":");
            // Lettuce's connection handshake uses the command timeout (500ms by default here); a busy CI machine
            // can exceed that at startup, which then fails the whole context.
            args.add("--spring.data.redis.timeout=5s");
        }
        app = PackagedJar.start(env, args);

        List<String> codes = new ArrayList<>();
        Pattern code = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"");
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> created =
                    app.postJson("/api/v1/links", "{\"url\":\"https://example.com/dashboard/" + i + "\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            Matcher matcher = code.matcher(created.body());
            assertThat(matcher.find()).isTrue();
            codes.add(matcher.group(1));
        }
        String alias = "dash" + UUID.randomUUID().toString().substring(0, 6);
        assertThat(app.postJson("/api/v1/links", "{\"url\":\"https://example.com/alias\",\"alias\":\"" + alias + "\"}")
                        .statusCode())
                .isEqualTo(201);
        codes.add(alias);
        for (int round = 0; round < 3; round++) {
            for (String c : codes) {
                assertThat(app.get(app.port(), "/" + c).statusCode()).isEqualTo(302);
            }
            for (int i = 0; i < 10; i++) {
                assertThat(app.get(app.port(), "/unknown" + i).statusCode()).isEqualTo(404);
            }
            assertThat(app.get(app.port(), "/not.a.code").statusCode()).isEqualTo(404);
            assertThat(app.head(app.port(), "/" + codes.get(0)).statusCode()).isEqualTo(302);
        }
        scrape = app.get(app.managementPort(), "/actuator/prometheus").body();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void everyMetricAndLabelValueTheDashboardQueriesIsInTheScrape() {
        Map<String, List<String>> series = series(scrape);
        Map<String, Set<String>> missing = new TreeMap<>();
        Map<String, Set<String>> notChecked = new TreeMap<>();
        for (Dashboard.Query query : Dashboard.queries()) {
            for (String metric : Dashboard.metricNames(query.expr())) {
                if (!redis && redisOnly(metric)) {
                    notChecked.computeIfAbsent(metric, k -> new TreeSet<>()).add(query.where());
                    continue;
                }
                if (!series.containsKey(metric)) {
                    missing.computeIfAbsent(metric, k -> new TreeSet<>()).add(query.where());
                }
            }
            Dashboard.equalityMatchers(query.expr()).forEach((metric, labels) -> {
                if (!series.containsKey(metric) || labels.isEmpty()) {
                    return;
                }
                boolean matched = series.get(metric).stream().anyMatch(labelSet -> labels.entrySet().stream()
                        .allMatch(e -> labelSet.contains(e.getKey() + "=\"" + e.getValue() + "\"")));
                if (!matched) {
                    missing.computeIfAbsent(metric + labels, k -> new TreeSet<>())
                            .add(query.where());
                }
            });
        }
        if (!notChecked.isEmpty()) {
            System.out.println("Redis tier off (set SHORTGATE_TEST_REDIS_URL): not checked " + notChecked.keySet());
        }
        assertThat(missing)
                .as("metrics (or label values) the dashboard queries but the app does not export, "
                        + "with the panels using them")
                .isEmpty();
    }

    @Test
    void theMetersHaveTheApplicationTag() {
        assertThat(series(scrape).get("shortgate_redirect_seconds_count"))
                .allSatisfy(labels -> assertThat(labels).contains("application=\"shortgate\""));
    }

    /** Metric name to the label sets of its samples, from the Prometheus text format. */
    static Map<String, List<String>> series(String text) {
        Map<String, List<String>> series = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            int end = brace >= 0 && brace < space ? brace : space;
            String labels = brace >= 0 && brace < space ? line.substring(brace, line.lastIndexOf('}') + 1) : "";
            series.computeIfAbsent(line.substring(0, end), k -> new ArrayList<>())
                    .add(labels);
        }
        return series;
    }
}
