package dev.shortgate.redirect;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.support.Pods;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

/**
 * A database that stops answering (F12, here a table lock held by the test): uncached codes answer 503 with
 * Retry-After, never 404; lookups waiting on the database stay bounded, the rest answering 503 at once instead of
 * piling up; and once the database answers again the same codes redirect.
 */
class DatabaseStallIT {

    static final int MAX_DB_LOOKUPS = 5;

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb().with("shortgate.redirect.max-db-lookups", MAX_DB_LOOKUPS);

    @Test
    void stalledDatabaseAnswers503FastWithBoundedLookupsAndRecovers() throws Exception {
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            codes.add(pods.app().shorten("https://example.com/stall/" + i));
        }
        pods.app().bean(NearCache.class).invalidateAll();
        MeterRegistry registry = pods.app().bean(MeterRegistry.class);
        double shed = shed(registry);

        List<Integer> statuses;
        try (Connection lock = pods.database().connection();
                Statement statement = lock.createStatement()) {
            statement.execute("LOCK TABLES link WRITE"); // every read of link now waits
            WebClient client = WebClient.create("http://127.0.0.1:" + pods.app().port());
            statuses = Flux.fromIterable(codes)
                    .flatMap(
                            code -> client.get().uri("/" + code).exchangeToMono(response -> response.releaseBody()
                                    .thenReturn(response.statusCode().value())),
                            codes.size())
                    .collectList()
                    .block(Duration.ofSeconds(30));
            statement.execute("UNLOCK TABLES");
        }

        assertThat(statuses).hasSize(codes.size()).containsOnly(503);
        assertThat(shed(registry) - shed)
                .as("lookups answered at once, without waiting on the database")
                .isGreaterThanOrEqualTo(codes.size() - MAX_DB_LOOKUPS);
        for (String code : codes.subList(0, 3)) {
            pods.app().web().get().uri("/" + code).exchange().expectStatus().isFound();
        }
    }

    private static double shed(MeterRegistry registry) {
        return registry.find("shortgate.redirect").tag("outcome", "shed").timers().stream()
                .mapToDouble(timer -> timer.count())
                .sum();
    }
}
