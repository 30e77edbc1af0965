package dev.shortgate.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.shortgate.support.RunningApp;
import dev.shortgate.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** On real MariaDB, the code column's binary collation keeps codes that differ only in case apart. */
class CaseSensitiveCodesIT {

    static TestServers.Database database;
    static RunningApp app;

    @BeforeAll
    static void start() {
        database = TestServers.newDatabase();
        app = RunningApp.start(database.properties());
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void codesDifferingOnlyInCaseAreTwoLinks() {
        create("aB", "https://example.com/lower-a");
        create("Ab", "https://example.com/upper-a");

        app.web().get().uri("/aB").exchange().expectStatus().isFound()
                .expectHeader().valueEquals("Location", "https://example.com/lower-a");
        app.web().get().uri("/Ab").exchange().expectStatus().isFound()
                .expectHeader().valueEquals("Location", "https://example.com/upper-a");
        app.web().get().uri("/ab").exchange().expectStatus().isNotFound();
        assertThat(database.queryForLong("SELECT COUNT(*) FROM link WHERE code IN ('aB', 'Ab')")).isEqualTo(2);
        assertThat(database.queryForLong("SELECT COUNT(*) FROM link WHERE code = 'ab'")).isZero();
    }

    private static void create(String alias, String url) {
        app.web().post().uri("/api/v1/links").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url, "alias", alias))
                .exchange()
                .expectStatus().isCreated()
                .expectBody().jsonPath("$.code").isEqualTo(alias);
    }
}
