package dev.shortgate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;

/**
 * The documentation stays true to the code: every setting of every {@code @ConfigurationProperties} record is in the
 * configuration reference, and every relative link in the README and under {@code docs/} leads to a file that exists
 * and, with an anchor, to a heading in it.
 */
class DocumentationTest {

    static final Path REFERENCE = Path.of("docs/configuration.md");

    @Test
    void everySettingIsInTheConfigurationReference() throws IOException {
        String reference = Files.readString(REFERENCE);
        Set<String> settings = settings();
        assertThat(settings).as("settings found in the code").hasSizeGreaterThan(50);
        List<String> missing = settings.stream()
                .filter(setting -> !reference.contains("`" + setting + "`"))
                .toList();
        assertThat(missing)
                .as("settings missing from %s (write each as `name`)", REFERENCE)
                .isEmpty();
    }

    @Test
    void everyRelativeLinkInTheReadmeAndDocsResolves() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        Pattern link = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
        for (Path page : pages) {
            Matcher m = link.matcher(withoutCode(Files.readString(page)));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto: (no network here)
                }
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path resolved = file.isEmpty()
                        ? page
                        : page.toAbsolutePath().getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(page + ": " + target + " (no such file)");
                } else if (anchor != null && !anchors(resolved).contains(anchor)) {
                    broken.add(page + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    /** Every setting name, {@code shortgate.redirect.near-cache.ttl} style, from the records' components. */
    private static Set<String> settings() {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        Set<String> names = new TreeSet<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("dev.shortgate")) {
            Class<?> type = load(candidate.getBeanClassName());
            if (!type.isRecord()) {
                continue; // the application class only enables the scan
            }
            collect(type.getAnnotation(ConfigurationProperties.class).value(), type, names);
        }
        return names;
    }

    private static void collect(String prefix, Class<?> record, Set<String> names) {
        for (RecordComponent component : record.getRecordComponents()) {
            String name = prefix + "." + kebab(component.getName());
            Class<?> type = component.getType();
            if (type.isRecord() && type.getEnclosingClass() != null) {
                collect(name, type, names); // a nested group of settings
            } else {
                names.add(name);
            }
        }
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The page without fenced code blocks, whose brackets are not links. */
    private static String withoutCode(String markdown) {
        return markdown.replaceAll("(?s)```.*?```", "");
    }

    /** GitHub's anchors of the page's headings. */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new TreeSet<>();
        for (String line : withoutCode(Files.readString(page)).split("\n")) {
            if (line.startsWith("#")) {
                String heading = line.replaceFirst("^#+\\s*", "").trim();
                anchors.add(heading.toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "")
                        .replace(' ', '-'));
            }
        }
        return anchors;
    }
}
