package dev.shortgate.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;

/**
 * The Kubernetes manifests under {@code k8s/}, read strictly into the fabric8 model.
 *
 * <p>Strict means: each document's {@code apiVersion}/{@code kind} must be one this base is meant to ship, and
 * every field must be one the Kubernetes API knows. fabric8 model classes keep unknown fields in an
 * {@code additionalProperties} map instead of failing, so after Jackson (which fails on unknown properties where
 * it can) this walks the whole object graph and rejects any non-empty {@code additionalProperties}, naming the
 * path, as {@code kubectl apply --validate=strict} would.
 */
final class Manifests {

    /** The directory the manifests live in, relative to the project (Maven runs tests there). */
    static final Path DIR = Path.of("k8s");

    /** What this base may ship: {@code apiVersion/kind} to the model class it must parse into. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "v1/ConfigMap", ConfigMap.class,
            "v1/Secret", Secret.class,
            "v1/Service", Service.class,
            "apps/v1/Deployment", Deployment.class,
            "networking.k8s.io/v1/Ingress", Ingress.class,
            "autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class,
            "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class,
            "monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class);

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final List<HasMetadata> resources;

    private Manifests(List<HasMetadata> resources) {
        this.resources = List.copyOf(resources);
    }

    /** Every resource the kustomization lists, parsed strictly. */
    static Manifests load() {
        List<HasMetadata> all = new ArrayList<>();
        for (String file : Kustomization.load().resources()) {
            all.addAll(parse(DIR.resolve(file)));
        }
        return new Manifests(all);
    }

    /** The strictly parsed documents of one YAML file. */
    static List<HasMetadata> parse(Path file) {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The strictly parsed documents of YAML text; {@code source} names it in error messages. */
    static List<HasMetadata> parse(String yaml, String source) {
        List<HasMetadata> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> nodes = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            int index = 0;
            while (nodes.hasNext()) {
                JsonNode node = nodes.next();
                String where = source + " document " + index++;
                if (node == null || node.isNull() || node.isEmpty()) {
                    continue;
                }
                String type = node.path("apiVersion").asText() + "/"
                        + node.path("kind").asText();
                Class<? extends HasMetadata> model = KINDS.get(type);
                if (model == null) {
                    throw new ManifestException(
                            where + ": unexpected apiVersion/kind " + type + "; expected one of " + KINDS.keySet());
                }
                HasMetadata resource;
                try {
                    resource = YAML.treeToValue(node, model);
                } catch (com.fasterxml.jackson.core.JacksonException e) {
                    throw new ManifestException(where + " (" + type + "): " + e.getOriginalMessage(), e);
                }
                List<String> unknown = new ArrayList<>();
                collectUnknownFields(resource, type, unknown);
                if (!unknown.isEmpty()) {
                    throw new ManifestException(
                            where + " (" + type + "): fields unknown to the Kubernetes API: " + unknown);
                }
                documents.add(resource);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + source, e);
        }
        return documents;
    }

    /** Adds {@code path.field} for every entry of every non-empty {@code additionalProperties} below {@code value}. */
    static void collectUnknownFields(Object value, String path, List<String> unknown) {
        if (value == null) {
            return;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                collectUnknownFields(item, path + "[" + i++ + "]", unknown);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, item) -> collectUnknownFields(item, path + "[" + key + "]", unknown));
            return;
        }
        if (!value.getClass().getName().startsWith("io.fabric8.")) {
            return; // strings, numbers, enums: leaves
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0
                    || Modifier.isStatic(getter.getModifiers())
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            String name = getter.getName();
            Object child;
            try {
                if (name.equals("getAdditionalProperties")) {
                    Map<?, ?> extra = (Map<?, ?>) getter.invoke(value);
                    if (extra != null) {
                        extra.keySet().forEach(key -> unknown.add(path + "." + key));
                    }
                    continue;
                }
                if (!name.startsWith("get") || name.equals("getClass")) {
                    continue;
                }
                child = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue; // computed accessors that do not apply to this value
            }
            String field = Character.toLowerCase(name.charAt(3)) + name.substring(4);
            collectUnknownFields(child, path + "." + field, unknown);
        }
    }

    List<HasMetadata> all() {
        return resources;
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return resources.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T one(Class<T> type) {
        List<T> found = all(type);
        if (found.size() != 1) {
            throw new AssertionError("Expected exactly one " + type.getSimpleName() + ", found " + found.size());
        }
        return found.get(0);
    }

    <T extends HasMetadata> Optional<T> named(Class<T> type, String name) {
        return all(type).stream()
                .filter(r -> name.equals(r.getMetadata().getName()))
                .findFirst();
    }

    static final class ManifestException extends RuntimeException {
        ManifestException(String message) {
            super(message);
        }

        ManifestException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The subset of {@code kustomization.yaml} this base uses, read with unknown fields failing: a misspelt
     * {@code resources} key would otherwise make kustomize silently apply nothing.
     */
    record Kustomization(
            String apiVersion, String kind, List<Labels> labels, List<String> resources, List<Image> images) {

        record Labels(Map<String, String> pairs, Boolean includeSelectors, Boolean includeTemplates) {}

        record Image(String name, String newName, String newTag, String digest) {}

        static Kustomization load() {
            try {
                return YAML.readValue(DIR.resolve("kustomization.yaml").toFile(), Kustomization.class);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
