package dev.shortgate.transfer.source;

import java.nio.file.Path;
import java.util.Locale;

import dev.shortgate.transfer.ImportSource;
import dev.shortgate.transfer.TransferProperties;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Makes the source an import names: {@code csv} or {@code jsonl} (a file), or {@code shlink}, {@code yourls},
 * {@code kutt}, {@code bitly} (a URL).
 */
@Component
public class Sources {

    private final SourceHttp http;
    private final TransferProperties properties;
    private final JsonMapper json;

    Sources(JsonMapper json, TransferProperties properties) {
        this.http = new SourceHttp(
                WebClient.builder()
                        .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(16 * 1024 * 1024))
                        .build(),
                json,
                properties.maxRetries(),
                properties.maxRetryAfter());
        this.properties = properties;
        this.json = json;
    }

    /**
     * @param apiKey the source's credential, or {@code null} for {@code shortgate.transfer.api-key}
     * @throws IllegalArgumentException for an unknown source, or one missing its file or URL
     */
    public ImportSource source(String from, Path file, String url, String apiKey) {
        String key = apiKey != null ? apiKey : properties.apiKey();
        String name = from == null ? "" : from.toLowerCase(Locale.ROOT);
        if (name.equals("csv") || name.equals("jsonl")) {
            if (file == null) {
                throw new IllegalArgumentException("--from " + name + " needs --file.");
            }
            return name.equals("csv") ? new CsvSource(file) : new JsonLinesSource(file, json);
        }
        if (url == null || !(url.startsWith("http://") || url.startsWith("https://"))) {
            throw new IllegalArgumentException("--from " + name + " needs --url, an http(s) address.");
        }
        int size = properties.pageSize();
        return switch (name) {
            case "shlink" -> new ShlinkSource(http, url, key, size);
            case "yourls" -> new YourlsSource(http, url, key, size);
            case "kutt" -> new KuttSource(http, url, key, size);
            case "bitly" -> new BitlySource(http, url, key, size);
            default ->
                throw new IllegalArgumentException(
                        "Unknown source '" + from + "'; use csv, jsonl, shlink, yourls, kutt or bitly.");
        };
    }
}
