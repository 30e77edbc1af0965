package dev.shortgate.transfer.source;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.function.Consumer;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Asks a source's API for one page of JSON. A 429 is asked again after its {@code Retry-After} (seconds or an HTTP
 * date, at most {@code maxRetryAfter}; one second when absent), a 5xx or a broken connection after a growing pause,
 * up to {@code maxRetries} times; any other error status fails the import with the status and the body's start.
 */
final class SourceHttp {

    private final WebClient client;
    private final JsonMapper json;
    private final int maxRetries;
    private final Duration maxRetryAfter;

    SourceHttp(WebClient client, JsonMapper json, int maxRetries, Duration maxRetryAfter) {
        this.client = client;
        this.json = json;
        this.maxRetries = maxRetries;
        this.maxRetryAfter = maxRetryAfter;
    }

    /** GETs {@code uri} (absolute) with the given headers, and parses the answer. */
    Mono<JsonNode> get(String uri, Consumer<HttpHeaders> headers) {
        return attempt(uri, headers, 0);
    }

    private Mono<JsonNode> attempt(String uri, Consumer<HttpHeaders> headers, int tried) {
        return client.get()
                .uri(java.net.URI.create(uri))
                .headers(headers)
                .exchangeToMono(response -> response.bodyToMono(String.class)
                        .defaultIfEmpty("")
                        .flatMap(body -> {
                            HttpStatusCode status = response.statusCode();
                            if (status.is2xxSuccessful()) {
                                return Mono.fromCallable(() -> json.readTree(body));
                            }
                            if ((status.value() == 429 || status.is5xxServerError()) && tried < maxRetries) {
                                Duration wait = status.value() == 429
                                        ? retryAfter(response.headers()
                                                .asHttpHeaders()
                                                .getFirst("Retry-After"))
                                        : Duration.ofMillis(200L << Math.min(tried, 6));
                                return Mono.delay(wait).then(attempt(uri, headers, tried + 1));
                            }
                            return Mono.error(new SourceException("The source answered " + status.value() + " to GET "
                                    + withoutQuery(uri) + ": " + body.substring(0, Math.min(200, body.length()))));
                        }))
                .onErrorResume(
                        e -> e instanceof org.springframework.web.reactive.function.client.WebClientRequestException
                                && tried < maxRetries,
                        e -> Mono.delay(Duration.ofMillis(200L << Math.min(tried, 6)))
                                .then(attempt(uri, headers, tried + 1)));
    }

    /** {@code Retry-After} as seconds or an HTTP date, cut to {@code maxRetryAfter}; one second when unreadable. */
    Duration retryAfter(String header) {
        Duration wait = Duration.ofSeconds(1);
        if (header != null) {
            try {
                wait = Duration.ofSeconds(Long.parseLong(header.trim()));
            } catch (NumberFormatException notSeconds) {
                try {
                    Instant at = ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME)
                            .toInstant();
                    wait = Duration.between(Instant.now(), at);
                } catch (RuntimeException notDate) {
                    // keep one second
                }
            }
        }
        if (wait.isNegative()) {
            wait = Duration.ZERO;
        }
        return wait.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : wait;
    }

    /** A URL without its query, which may carry a YOURLS signature: never logged or reported. */
    static String withoutQuery(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    /** A field as text, or {@code null} when missing, null or empty. */
    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull() || value.isMissingNode() || value.isContainer()) {
            return null;
        }
        String text = value.asString();
        return text.isEmpty() ? null : text;
    }

    /** A field as a number, or {@code null} (numbers given as strings included, as YOURLS does). */
    static Long number(JsonNode node, String field) {
        String text = text(node, field);
        if (text == null) {
            return null;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The last path segment of a short URL ({@code https://bit.ly/abc} → {@code abc}). */
    static String lastSegment(String url) {
        if (url == null) {
            return null;
        }
        String path = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** A source's failure (its answer, not a link's problem): the import fails. */
    static final class SourceException extends RuntimeException {
        SourceException(String message) {
            super(message);
        }
    }
}
