package dev.shortgate.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;

/** On real MariaDB, the code column's binary collation keeps codes that differ only in case apart. */
class CaseSensitiveCodesIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb();

    @Test
    void codesDifferingOnlyInCaseAreTwoLinks() {
        create("aB", "https://example.com/lower-a");
        create("Ab", "https://example.com/upper-a");

        pods.app()
                .web()
                .get()
                .uri("/aB")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/lower-a");
        pods.app()
                .web()
                .get()
                .uri("/Ab")
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", "https://example.com/upper-a");
        pods.app().web().get().uri("/ab").exchange().expectStatus().isNotFound();
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link WHERE code IN ('aB', 'Ab')"))
                .isEqualTo(2);
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link WHERE code = 'ab'"))
                .isZero();
    }

    private static void create(String alias, String url) {
        pods.app()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", url, "alias", alias))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo(alias);
    }
}
