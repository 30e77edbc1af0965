package dev.shortgate.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * The OpenAPI description of {@code /api/v1} and the controllers agree: every handler under {@code /api/v1} is
 * described with its method and nothing else is, and real answers match the schema described for their status.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + OpenApiDescriptionTest.KEY,
            "spring.r2dbc.url=r2dbc:h2:mem:///openapi?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class OpenApiDescriptionTest {

    static final String KEY = "openapi-admin-key-0123456789";
    static final String DESCRIPTION = "/api/v1/openapi.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    WebTestClient anonymous;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping handlers;

    @Test
    void descriptionIsOpenApi31AndNeedsNoKey() {
        JsonNode description = description();
        assertThat(description.path("openapi").asText()).startsWith("3.1");
        assertThat(description.path("paths").has("/api/v1/links")).isTrue();
    }

    @Test
    void everyApiHandlerIsDescribedAndEveryDescribedOperationHasAHandler() {
        Set<String> handled = new TreeSet<>();
        handlers.getHandlerMethods().forEach((info, method) -> info.getPatternsCondition()
                .getPatterns()
                .forEach(pattern -> {
                    String path = pattern.getPatternString();
                    if (path.startsWith("/api/v1/") && !path.startsWith(DESCRIPTION)) {
                        info.getMethodsCondition().getMethods().forEach(verb -> handled.add(verb.name() + " " + path));
                    }
                }));
        Set<String> described = new TreeSet<>();
        description().path("paths").fields().forEachRemaining(path -> path.getValue()
                .fieldNames()
                .forEachRemaining(
                        verb -> described.add(verb.toUpperCase(java.util.Locale.ROOT) + " " + path.getKey())));
        assertThat(handled).isNotEmpty();
        assertThat(described).isEqualTo(handled);
    }

    @Test
    void realAnswersMatchTheSchemasDescribedForTheirStatus() {
        WebTestClient web = anonymous.mutate().defaultHeader("X-Api-Key", KEY).build();
        JsonNode description = description();

        var created = web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/openapi", "alias", "openapi-link", "maxVisits", 5))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(String.class)
                .returnResult();
        assertDescribed(description, "/api/v1/links", "post", created);
        var again = web.post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/openapi", "alias", "openapi-link", "maxVisits", 5))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult();
        assertDescribed(description, "/api/v1/links", "post", again);
        var read = web.get()
                .uri("/api/v1/links/openapi-link")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult();
        assertDescribed(description, "/api/v1/links/{code}", "get", read);
        var patched = web.patch()
                .uri("/api/v1/links/openapi-link")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("redirectStatus", 307))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult();
        assertDescribed(description, "/api/v1/links/{code}", "patch", patched);
        var deleted = web.delete()
                .uri("/api/v1/links/openapi-link")
                .exchange()
                .expectStatus()
                .isNoContent()
                .expectBody(String.class)
                .returnResult();
        assertDescribed(description, "/api/v1/links/{code}", "delete", deleted);
    }

    private static void assertDescribed(
            JsonNode description, String path, String verb, EntityExchangeResult<String> result) {
        String status = Integer.toString(result.getStatus().value());
        JsonNode response = description
                .path("paths")
                .path(path)
                .path(verb)
                .path("responses")
                .path(status);
        assertThat(response.isMissingNode())
                .as("%s %s describes its %s answer", verb, path, status)
                .isFalse();
        if (result.getResponseBody() == null || result.getResponseBody().isEmpty()) {
            assertThat(response.path("content").isMissingNode()
                            || response.path("content").isEmpty())
                    .as("%s %s %s has no body, as described", verb, path, status)
                    .isTrue();
            return;
        }
        JsonNode schema = response.path("content").elements().next().path("schema");
        ObjectNode rooted = ((ObjectNode) schema.deepCopy()).set("components", description.path("components"));
        Set<ValidationMessage> errors;
        try {
            errors = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(rooted)
                    .validate(JSON.readTree(result.getResponseBody()));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertThat(errors.stream().map(ValidationMessage::getMessage).collect(Collectors.toList()))
                .as("%s %s %s: %s", verb, path, status, result.getResponseBody())
                .isEmpty();
    }

    private JsonNode description() {
        byte[] body = anonymous
                .get()
                .uri(DESCRIPTION)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
