package dev.shortgate.redirect;

import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.HEAD;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/** The redirect route: a single path segment, GET or HEAD. The API lives under {@code /api}, two segments deep. */
@Configuration(proxyBeanMethods = false)
class RedirectRoutes {

    @Bean
    RouterFunction<ServerResponse> redirectRoute(RedirectHandler handler) {
        return RouterFunctions.route(GET("/{code}").or(HEAD("/{code}")), handler::handle);
    }
}
