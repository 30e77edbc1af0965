package dev.shortgate.system.web;

import dev.shortgate.system.problem.JsonProblems;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * Binds request bodies strictly: a field typed as a number takes only a JSON integer in its range, a flag only
 * {@code true} or {@code false}, a text only a JSON string. Jackson would otherwise truncate {@code 301.5} to 301
 * and read {@code "302"} as 302, so a typo would be stored instead of refused. A value that does not bind is
 * answered as an {@code invalid-request} problem naming the field ({@link JsonProblems}). Request bodies are also
 * refused for a field their type does not have ({@link RequestJson}).
 */
@Configuration(proxyBeanMethods = false)
class JsonConfiguration {

    @Bean
    JsonMapperBuilderCustomizer strictScalars() {
        return builder -> builder.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .withCoercionConfig(
                        LogicalType.Integer, config -> config.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Boolean, config -> config.setCoercion(
                                CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Textual, config -> config.setCoercion(
                                CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }

    @Bean
    RequestJson requestJson(JsonMapper json) {
        return new RequestJson(json);
    }

    /**
     * The server's JSON decoder binds with {@link RequestJson}. Spring Boot's own codec set-up ({@code @Order(0)})
     * runs first; this one, unordered, runs after it and replaces only the decoder. WebClients are not touched.
     */
    @Bean
    WebFluxConfigurer strictRequestBodies(RequestJson requestJson) {
        return new WebFluxConfigurer() {
            @Override
            public void configureHttpMessageCodecs(ServerCodecConfigurer codecs) {
                codecs.defaultCodecs().jacksonJsonDecoder(new JacksonJsonDecoder(requestJson.mapper()));
            }
        };
    }
}
