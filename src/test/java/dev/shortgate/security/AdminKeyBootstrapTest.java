package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The embedded default with no admin key configured: the first start generates one, prints it once and stores
 * only its hash; a second start on the same data prints no key, and the first key still works.
 */
@ExtendWith(OutputCaptureExtension.class)
class AdminKeyBootstrapTest {

    private static final Pattern PRINTED_KEY = Pattern.compile("(sg_[A-Za-z0-9_-]{43})");

    @Test
    void firstStartPrintsAnAdminKeyOnceAndStoresOnlyItsHash(@TempDir Path dir, CapturedOutput output) {
        String url = "r2dbc:h2:file:///" + dir.toAbsolutePath().resolve("bootstrap")
                + "?options=MODE=MySQL;DATABASE_TO_LOWER=TRUE";

        String key;
        try (ConfigurableApplicationContext app = start(url)) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> PRINTED_KEY.matcher(output.getOut()).find());
            Matcher printed = PRINTED_KEY.matcher(output.getOut());
            assertThat(printed.find()).isTrue();
            key = printed.group(1);
            Long stored = app.getBean(DatabaseClient.class)
                    .sql("SELECT COUNT(*) AS n FROM api_key WHERE scope = 'admin' AND key_hash = :hash")
                    .bind("hash", ApiKeys.sha256(key))
                    .map(row -> ((Number) row.get("n")).longValue())
                    .one()
                    .block();
            assertThat(stored).isEqualTo(1);
            client(app, key)
                    .get()
                    .uri("/api/v1/links")
                    .exchange()
                    .expectStatus()
                    .isOk();
        }
        int printedSoFar = output.getOut().length();

        try (ConfigurableApplicationContext app = start(url)) {
            client(app, key)
                    .get()
                    .uri("/api/v1/links")
                    .exchange()
                    .expectStatus()
                    .isOk();
            assertThat(PRINTED_KEY
                            .matcher(output.getOut().substring(printedSoFar))
                            .find())
                    .as("a second start prints no key")
                    .isFalse();
        }
    }

    private static ConfigurableApplicationContext start(String url) {
        return new SpringApplicationBuilder(dev.shortgate.ShortgateApplication.class)
                .run(
                        "--server.port=0",
                        "--management.server.port=0",
                        "--spring.r2dbc.url=" + url,
                        "--shortgate.security.admin-key=");
    }

    private static WebTestClient client(ConfigurableApplicationContext app, String key) {
        return WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port"))
                .defaultHeader("X-Api-Key", key)
                .build();
    }
}
