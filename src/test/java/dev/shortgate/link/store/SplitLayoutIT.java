package dev.shortgate.link.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.shortgate.link.Link;
import dev.shortgate.support.Pods;
import dev.shortgate.system.database.LinkTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.MediaType;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The split layout on MariaDB: links left in {@code link} redirect through the database tier, and the move takes
 * them into their tables in batches while they are read and while creates try to take their codes.
 */
class SplitLayoutIT {

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .with("shortgate.storage.table-split", "first-char")
            .with("shortgate.storage.move-batch-size", 7);

    @Test
    void linksInTheOldTableRedirectAndAreMovedWhileReadAndRaced() {
        List<String> codes = IntStream.range(0, 60)
                .mapToObj(i -> "0aAzZ9".charAt(i % 6) + "sp" + (1000 + i))
                .toList();
        codes.forEach(SplitLayoutIT::legacy);
        pods.app()
                .web()
                .get()
                .uri("/" + codes.get(0))
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", url(codes.get(0)));

        LinkRepository links = pods.app().bean(LinkRepository.class);
        LinkWrites writes = pods.app().bean(LinkWrites.class);
        LinkMove move = pods.app().bean(LinkMove.class);
        Flux<Boolean> reads = Flux.range(0, 600)
                .flatMap(
                        i -> links.findByCode(codes.get(i % codes.size()))
                                .map(link -> link.url().equals(url(link.code())))
                                .defaultIfEmpty(false),
                        8);
        // Other links wanting the same codes, as an alias create would: none may get one
        Flux<Boolean> takes = Flux.fromIterable(codes)
                .flatMap(
                        code -> writes.insert(new Link(
                                code,
                                "https://example.com/thief/" + code,
                                302,
                                true,
                                Instant.now().truncatedTo(ChronoUnit.MILLIS),
                                null,
                                null,
                                false,
                                false,
                                null,
                                null)),
                        4);
        StepVerifier.create(Mono.zip(move.moveAll(), reads.all(found -> found), takes.any(taken -> taken)))
                .assertNext(done -> {
                    assertThat(done.getT1()).isEqualTo(codes.size());
                    assertThat(done.getT2()).as("every read found its link").isTrue();
                    assertThat(done.getT3())
                            .as("a code still in link was taken by another link")
                            .isFalse();
                })
                .expectComplete()
                .verify(Duration.ofSeconds(60));

        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link")).isZero();
        for (String code : codes) {
            assertThat(pods.database()
                            .queryForLong("SELECT COUNT(*) FROM " + LinkTables.splitTable(code) + " WHERE code = '"
                                    + code + "' AND long_url = '" + url(code) + "'"))
                    .as(code)
                    .isEqualTo(1);
        }
        assertThat(pods.database().queryForLong("SELECT COUNT(*) FROM link_create_key WHERE code LIKE '_sp%'"))
                .isEqualTo(codes.size());
        pods.app()
                .web()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(
                        Map.of("url", url(codes.get(5)), "length", codes.get(5).length()))
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo(codes.get(5));
        pods.app()
                .web()
                .get()
                .uri("/" + codes.get(7))
                .exchange()
                .expectStatus()
                .isFound()
                .expectHeader()
                .valueEquals("Location", url(codes.get(7)));
    }

    private static String url(String code) {
        return "https://example.com/split/" + code;
    }

    /** A live generated link as the one-table layout wrote it, create key included. */
    private static void legacy(String code) {
        Link link = new Link(
                code,
                url(code),
                302,
                false,
                Instant.now().truncatedTo(ChronoUnit.MILLIS),
                null,
                null,
                false,
                false,
                null,
                null);
        HexFormat hex = HexFormat.of();
        pods.database()
                .update("INSERT INTO link (code, long_url, long_url_hash, alias, redirect_status, created_at, "
                        + "create_key) VALUES ('" + code + "', '" + url(code) + "', UNHEX('"
                        + hex.formatHex(LinkRows.hash(url(code))) + "'), FALSE, 302, NOW(3), UNHEX('"
                        + hex.formatHex(LinkRows.createKey(link, code.length())) + "'))");
    }
}
