package dev.shortgate.events;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.security.ApiPrincipal;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;

/**
 * Shlink's {@code GET /rest/v3/mercure-info} (behind the API key, as every {@code /rest} call), and the subscriber
 * side of the Mercure protocol, {@code GET /.well-known/mercure?topic=…}, as server-sent events. A subscriber shows
 * a token from {@code mercure-info} as {@code Authorization: Bearer}, as the {@code authorization} query parameter
 * or as the {@code mercureAuthorization} cookie (Mercure's three ways); without a valid one the hub answers 401.
 */
@RestController
class MercureController {

    static final String HUB_PATH = "/.well-known/mercure";

    private final EventsProperties.Mercure properties;
    private final URI hubUrl;
    private final MercureTokens tokens;
    private final MercureHub hub;
    private final Clock clock;

    MercureController(
            EventsProperties.Mercure properties, URI origin, MercureTokens tokens, MercureHub hub, Clock clock) {
        this.properties = properties;
        String base = origin.toString();
        this.hubUrl = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + HUB_PATH);
        this.tokens = tokens;
        this.hub = hub;
        this.clock = clock;
    }

    @GetMapping(path = "/rest/v3/mercure-info", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> mercureInfo(ServerWebExchange exchange) {
        if (ApiPrincipal.of(exchange).isDomainLimited()) {
            // the token subscribes to every short URL's updates: not for a key limited to one domain
            throw ApiPrincipal.domainNotAllowed(null);
        }
        if (!properties.enabled()) {
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                    HttpStatus.NOT_IMPLEMENTED, "This Shlink instance is not integrated with a mercure hub.");
            problem.setType(URI.create("https://shlink.io/api/error/mercure-not-configured"));
            problem.setTitle("Mercure integration not configured");
            return ResponseEntity.status(HttpStatus.NOT_IMPLEMENTED)
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(problem);
        }
        Instant expires = clock.instant().plus(Duration.ofDays(properties.jwtDays()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mercureHubUrl", hubUrl.toString());
        String token = tokens.issue(MercureTokens.ALL, expires);
        body.put("token", token);
        body.put("jwt", token); // Shlink's documented name (MercureInfo.json); its action answers "token"
        body.put("jwtExpiration", ShortUrls.date(expires));
        return ResponseEntity.ok(body);
    }

    @GetMapping(path = HUB_PATH)
    ResponseEntity<Flux<ServerSentEvent<String>>> subscribe(ServerWebExchange exchange) {
        if (!properties.enabled()) {
            return ResponseEntity.notFound().build();
        }
        ServerHttpRequest request = exchange.getRequest();
        List<String> topics = request.getQueryParams().getOrDefault("topic", List.of());
        if (topics.isEmpty()) {
            return ResponseEntity.badRequest().build();
        }
        List<String> granted = tokens.subscriptions(token(request));
        if (granted == null) {
            return ResponseEntity.status(HttpStatus.UNAUTHORIZED).build();
        }
        Flux<ServerSentEvent<String>> stream = hub.subscribe(topics, granted);
        if (stream == null) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .header(HttpHeaders.RETRY_AFTER, "5")
                    .build();
        }
        return ResponseEntity.ok()
                .contentType(MediaType.TEXT_EVENT_STREAM)
                .header(HttpHeaders.CACHE_CONTROL, "no-cache")
                .header("X-Accel-Buffering", "no")
                .body(stream);
    }

    private static String token(ServerHttpRequest request) {
        String header = request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7);
        }
        String query = request.getQueryParams().getFirst("authorization");
        if (query != null) {
            return query;
        }
        HttpCookie cookie = request.getCookies().getFirst("mercureAuthorization");
        return cookie == null ? null : cookie.getValue();
    }
}
