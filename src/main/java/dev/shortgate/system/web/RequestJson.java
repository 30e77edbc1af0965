package dev.shortgate.system.web;

import dev.shortgate.system.problem.JsonProblems;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * How Shortgate's API binds request bodies: as the application's {@link JsonMapper} does (with its strict scalars,
 * {@link JsonConfiguration}), and a field the body's type does not have is refused rather than dropped, so a caller
 * who sends {@code "tgas"} learns of it instead of getting a link without them. It is the server's JSON decoder, and
 * binds what a controller reads on its own (each item of a batch).
 *
 * <p>Only request bodies: JSON the application reads back (links cached in Redis, stored rules) stays lenient, so that
 * during a rolling upgrade an older node reads what a newer one wrote. Shlink's API binds its bodies as maps and checks
 * their fields itself ({@code shlink/ShortUrlBody}), so the decoder's strictness does not reach it.
 */
public final class RequestJson {

    private final JsonMapper mapper;

    RequestJson(JsonMapper application) {
        this.mapper = application
                .rebuild()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build();
    }

    JsonMapper mapper() {
        return mapper;
    }

    /**
     * Binds a JSON value to {@code type}; a field that is not {@code type}'s or a value that does not bind throws the
     * Jackson error, which {@link JsonProblems#invalidField} turns into a problem naming the field.
     */
    public <T> T bind(JsonNode node, Class<T> type) throws JacksonException {
        return mapper.treeToValue(node, type);
    }
}
