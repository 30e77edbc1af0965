package dev.shortgate.system.web;

import io.micrometer.observation.ObservationPredicate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

/**
 * Spring's generic {@code http.server.requests} observation is kept for the API and skipped for redirects: the
 * redirect path has its own {@code shortgate.redirect} timer with bounded tags, and on the hot path the
 * generic one would double the bookkeeping of every request.
 */
@Configuration(proxyBeanMethods = false)
class ObservationConfiguration {

    @Bean
    ObservationPredicate skipRedirectRequestObservations() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request)
                || !isRedirectPath(request.getCarrier().getPath().value());
    }

    /** A redirect path is a single segment: {@code /{code}}. */
    static boolean isRedirectPath(String path) {
        return path.length() > 1 && path.indexOf('/', 1) < 0;
    }
}
