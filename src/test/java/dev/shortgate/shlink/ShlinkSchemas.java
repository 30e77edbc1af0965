package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

/**
 * Shlink's own response schemas, from the copy of its {@code docs/swagger} pinned under
 * {@code src/test/resources/shlink} (see the README there for the commit). Relative {@code $ref}s between its files
 * are inlined, and responses are checked with a JSON Schema 2020-12 validator.
 */
final class ShlinkSchemas {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final URI ROOT = URI.create("file:/shlink/");
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private ShlinkSchemas() {}

    /**
     * Fails unless {@code body} matches the schema Shlink documents for this answer.
     *
     * @param pathFile the file under {@code paths/}, e.g. {@code v1_short-urls.json}
     * @param method   {@code get}, {@code post}, ...
     * @param status   the documented status ({@code 200}, {@code 404}, or {@code default})
     */
    static void assertValid(String pathFile, String method, String status, String body) {
        JsonNode responses = load("paths/" + pathFile).path(method).path("responses");
        JsonNode response = responses.has(status) ? responses.get(status) : responses.get("default");
        assertThat(response)
                .as("Shlink documents %s %s %s", method, pathFile, status)
                .isNotNull();
        JsonNode content = response.path("content");
        Iterator<Map.Entry<String, JsonNode>> types = content.fields();
        assertThat(types.hasNext())
                .as("a body for %s %s %s", method, pathFile, status)
                .isTrue();
        JsonNode schema = inline(types.next().getValue().get("schema"), under("paths/" + pathFile));
        assertMatches(schema, body);
    }

    /** Fails unless {@code body} matches a schema under {@code definitions/}, e.g. {@code ShortUrl.json}. */
    static void assertDefinition(String definition, String body) {
        URI uri = under("definitions/" + definition);
        assertMatches(inline(load(uri), uri), body);
    }

    private static void assertMatches(JsonNode schema, String body) {
        JsonSchema validator = FACTORY.getSchema(schema);
        JsonNode document;
        try {
            document = JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("Not JSON: " + body, e);
        }
        Set<ValidationMessage> errors = validator.validate(document);
        assertThat(errors.stream().map(ValidationMessage::getMessage).collect(Collectors.toList()))
                .as("Shlink's schema for %s", body)
                .isEmpty();
    }

    /** The schema with every file {@code $ref} replaced by that file's (inlined) content. */
    private static JsonNode inline(JsonNode node, URI base) {
        if (node == null) {
            return null;
        }
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null && ref.isTextual() && !ref.asText().startsWith("#")) {
                URI target = base.resolve(ref.asText());
                return inline(load(target), target);
            }
            ObjectNode copy = JSON.createObjectNode();
            node.fields().forEachRemaining(field -> copy.set(field.getKey(), inline(field.getValue(), base)));
            return copy;
        }
        if (node.isArray()) {
            var copy = JSON.createArrayNode();
            node.forEach(item -> copy.add(inline(item, base)));
            return copy;
        }
        return node;
    }

    private static JsonNode load(String path) {
        return load(under(path));
    }

    /** A file under the pinned folder; Shlink's file names hold braces, which a URI must quote. */
    private static URI under(String path) {
        try {
            return ROOT.resolve(new URI(null, null, path, null));
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException(path, e);
        }
    }

    private static JsonNode load(URI uri) {
        String resource = "/shlink/" + ROOT.relativize(uri).getPath();
        try (InputStream in = ShlinkSchemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("No pinned Shlink schema " + resource);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
