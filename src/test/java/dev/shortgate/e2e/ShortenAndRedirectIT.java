package dev.shortgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpServer;
import dev.shortgate.support.JarProcess;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar, started as a user starts it (embedded default, empty folder): shorten a URL, then follow the
 * short link with a real HTTP client to a real target server on loopback.
 */
class ShortenAndRedirectIT {

    @Test
    void packagedJarShortensAndTheShortLinkLeadsToTheTarget() throws Exception {
        HttpServer target = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        target.createContext("/landing", exchange -> {
            byte[] body = ("landed " + exchange.getRequestURI().getQuery()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        target.start();
        // --SHORTGATE_BASE_URL=...: the documented variable name works as a command-line argument too
        try (JarProcess app = JarProcess.start(
                Map.of(
                        "SHORTGATE_BASE_URL",
                        "https://sho.rt",
                        // the target is on loopback, which the URL policy refuses unless told otherwise
                        "shortgate.security.url.allow-private-hosts",
                        "true"),
                Map.of("SHORTGATE_ADMIN_KEY", "e2e-admin-key-0123456789"))) {
            String targetUrl = "http://127.0.0.1:" + target.getAddress().getPort() + "/landing?from=e2e";
            HttpClient client = HttpClient.newBuilder()
                    .followRedirects(HttpClient.Redirect.NORMAL)
                    .build();

            HttpResponse<String> created = client.send(
                    HttpRequest.newBuilder(URI.create(app.baseUrl() + "/api/v1/links"))
                            .header("Content-Type", "application/json")
                            .header("X-Api-Key", "e2e-admin-key-0123456789")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"" + targetUrl + "\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            Matcher code = Pattern.compile("\"code\":\"([0-9a-zA-Z]{7})\"").matcher(created.body());
            assertThat(code.find()).as(created.body()).isTrue();
            assertThat(created.body()).contains("\"shortUrl\":\"https://sho.rt/" + code.group(1) + "\"");

            HttpResponse<String> followed = client.send(
                    HttpRequest.newBuilder(URI.create(app.baseUrl() + "/" + code.group(1)))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(followed.statusCode()).isEqualTo(200);
            assertThat(followed.body()).isEqualTo("landed from=e2e");
            assertThat(followed.previousResponse()).hasValueSatisfying(redirect -> {
                assertThat(redirect.statusCode()).isEqualTo(302);
                assertThat(redirect.headers().allValues("Location")).containsExactly(targetUrl);
            });

            HttpResponse<String> metrics = client.send(
                    HttpRequest.newBuilder(URI.create(app.managementUrl() + "/actuator/prometheus"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.body())
                    .contains("shortgate_redirect_seconds_count{application=\"shortgate\",outcome=\"found\"");
        } catch (IOException | RuntimeException e) {
            throw e;
        } finally {
            target.stop(0);
        }
    }
}
