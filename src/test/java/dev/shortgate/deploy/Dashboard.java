package dev.shortgate.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The Grafana dashboard in {@code grafana/dashboards/}: its panels' PromQL, and the metric names and label
 * matchers each query uses.
 */
final class Dashboard {

    static final Path FILE = Path.of("grafana", "dashboards", "shortgate.json");

    /** PromQL keywords and modifiers that look like identifiers but name no metric. */
    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "offset",
            "and",
            "or",
            "unless",
            "atan2",
            "inf",
            "nan",
            "start",
            "end");

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{([^}]*)}");
    private static final Pattern MATCHER =
            Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!=|!~|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private Dashboard() {}

    /** One query: where it is shown, and its PromQL. */
    record Query(String where, String expr) {}

    static JsonNode json() {
        try {
            return new ObjectMapper().readTree(FILE.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every PromQL expression of the dashboard: panel targets (rows included) and template variable queries. */
    static List<Query> queries() {
        JsonNode dashboard = json();
        List<Query> queries = new ArrayList<>();
        collectPanels(dashboard.path("panels"), queries);
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if ("query".equals(variable.path("type").asText())) {
                JsonNode query = variable.path("query");
                String text = query.isObject() ? query.path("query").asText() : query.asText();
                Matcher labelValues =
                        Pattern.compile("label_values\\((.*),\\s*\\w+\\)").matcher(text);
                queries.add(new Query(
                        "variable $" + variable.path("name").asText(),
                        labelValues.matches() ? labelValues.group(1) : text));
            }
        }
        return queries;
    }

    private static void collectPanels(JsonNode panels, List<Query> queries) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new Query(
                        panel.path("title").asText() + " ["
                                + target.path("refId").asText() + "]",
                        target.path("expr").asText()));
            }
            collectPanels(panel.path("panels"), queries);
        }
    }

    /**
     * The metric names a PromQL expression reads: identifiers that are not functions, aggregations, keywords,
     * label names (inside {@code {}} or a {@code by (...)} list), durations or Grafana variables.
     */
    static Set<String> metricNames(String expr) {
        String text = STRING.matcher(expr).replaceAll("\"\"");
        text = text.replaceAll("\\{[^}]*}", " ");
        text = text.replaceAll("\\[[^]]*]", " ");
        text = GROUPING.matcher(text).replaceAll(" ");
        text = GRAFANA_VARIABLE.matcher(text).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher identifier = IDENTIFIER.matcher(text);
        while (identifier.find()) {
            String name = identifier.group(1);
            boolean call = identifier.group(2) != null;
            if (!call && !KEYWORDS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * The equality matchers ({@code label="value"}, without Grafana variables) of each selector in an expression,
     * as {@code metric -> {label -> value}}.
     */
    static Map<String, Map<String, String>> equalityMatchers(String expr) {
        Map<String, Map<String, String>> matchers = new LinkedHashMap<>();
        Matcher selector = SELECTOR.matcher(expr);
        while (selector.find()) {
            Map<String, String> labels = matchers.computeIfAbsent(selector.group(1), k -> new LinkedHashMap<>());
            Matcher matcher = MATCHER.matcher(selector.group(2));
            while (matcher.find()) {
                if (matcher.group(2).equals("=") && !matcher.group(3).contains("$")) {
                    labels.put(matcher.group(1), matcher.group(3));
                }
            }
        }
        return matchers;
    }
}
