package dev.shortgate.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * What the application really reads: its {@code application.yaml}, the {@code @ConfigurationProperties} records
 * under {@code dev.shortgate}, and the configuration metadata Spring Boot ships for its own properties.
 */
final class AppSettings {

    private AppSettings() {}

    /** {@code application.yaml} as property sources (one per YAML document). */
    static List<PropertySource<?>> applicationYaml() {
        try {
            return new YamlPropertySourceLoader().load("application.yaml", new ClassPathResource("application.yaml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The environment a pod sees: the container's environment variables (through Spring's relaxed binding, as
     * {@code SystemEnvironmentPropertySource}) over {@code application.yaml}.
     */
    static StandardEnvironment environment(Map<String, String> containerEnv) {
        StandardEnvironment environment = new StandardEnvironment();
        var sources = environment.getPropertySources();
        sources.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        sources.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        sources.addFirst(new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new LinkedHashMap<>(containerEnv)));
        applicationYaml().forEach(sources::addLast);
        ConfigurationPropertySources.attach(environment);
        return environment;
    }

    /** Property names set in {@code application.yaml}, list indexes removed. */
    static Set<String> applicationYamlNames() {
        Set<String> names = new TreeSet<>();
        for (PropertySource<?> source : applicationYaml()) {
            for (String name : ((EnumerablePropertySource<?>) source).getPropertyNames()) {
                names.add(name.replaceAll("\\[\\d+]", ""));
            }
        }
        return names;
    }

    /**
     * Environment variables {@code application.yaml} reads by name through a placeholder, such as
     * {@code admin-key: ${SHORTGATE_ADMIN_KEY:}}, with the properties they set.
     */
    static Map<String, List<String>> placeholderReferences() {
        Map<String, List<String>> references = new LinkedHashMap<>();
        java.util.regex.Pattern placeholder = java.util.regex.Pattern.compile("\\$\\{([A-Za-z0-9_.-]+)");
        for (PropertySource<?> source : applicationYaml()) {
            for (String name : ((EnumerablePropertySource<?>) source).getPropertyNames()) {
                java.util.regex.Matcher matcher = placeholder.matcher(String.valueOf(source.getProperty(name)));
                while (matcher.find()) {
                    references
                            .computeIfAbsent(matcher.group(1), k -> new ArrayList<>())
                            .add(name);
                }
            }
        }
        return references;
    }

    /** {@code @ConfigurationProperties} types of the application, by prefix. */
    static Map<String, Class<?>> configurationProperties() {
        var scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(
                new org.springframework.core.type.filter.AnnotationTypeFilter(ConfigurationProperties.class));
        Map<String, Class<?>> types = new LinkedHashMap<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("dev.shortgate")) {
            try {
                Class<?> type = Class.forName(candidate.getBeanClassName());
                ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
                String prefix = annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
                types.put(prefix, type);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
        return types;
    }

    /** Leaf property names of the application's own records, such as {@code shortgate.redirect.near-cache.ttl}. */
    static Set<String> applicationPropertyNames() {
        Set<String> names = new TreeSet<>();
        configurationProperties().forEach((prefix, type) -> addRecordNames(prefix, type, names));
        return names;
    }

    private static void addRecordNames(String prefix, Class<?> type, Set<String> names) {
        if (!type.isRecord()) {
            names.add(prefix);
            return;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            String name = prefix + "." + kebab(component.getName());
            Class<?> child = component.getType();
            if (child.isRecord() && child.getName().startsWith("dev.shortgate.")) {
                addRecordNames(name, child, names);
            } else {
                names.add(name);
            }
        }
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** Every property Spring Boot documents in the configuration metadata of the jars on the classpath. */
    static Set<String> springBootPropertyNames() {
        ObjectMapper json = new ObjectMapper();
        Set<String> names = new TreeSet<>();
        try {
            Resource[] files = new PathMatchingResourcePatternResolver()
                    .getResources("classpath*:META-INF/spring-configuration-metadata.json");
            for (Resource file : files) {
                try (InputStream in = file.getInputStream()) {
                    for (JsonNode property : json.readTree(in).path("properties")) {
                        names.add(property.path("name").asText());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /** Every property name the application may read. */
    static Set<String> knownPropertyNames() {
        Set<String> names = new TreeSet<>();
        names.addAll(applicationYamlNames());
        names.addAll(applicationPropertyNames());
        names.addAll(springBootPropertyNames());
        return names;
    }

    /**
     * The properties among {@code candidates} that an environment variable named {@code envName} sets, as Spring
     * Boot's relaxed binding reads it (for example {@code SHORTGATE_BASE_URL} sets {@code shortgate.base-url}).
     */
    static List<String> propertiesSetBy(String envName, Collection<String> candidates) {
        ConfigurationPropertySource source = ConfigurationPropertySource.from(new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(envName, "x")));
        List<String> matches = new ArrayList<>();
        for (String candidate : candidates) {
            if (!ConfigurationPropertyName.isValid(candidate)) {
                continue;
            }
            ConfigurationPropertyName name = ConfigurationPropertyName.of(candidate);
            if (source.getConfigurationProperty(name) != null
                    || source.containsDescendantOf(name)
                            == org.springframework.boot.context.properties.source.ConfigurationPropertyState.PRESENT) {
                matches.add(candidate);
            }
        }
        return matches;
    }
}
