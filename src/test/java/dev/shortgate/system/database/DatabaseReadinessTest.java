package dev.shortgate.system.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** Readiness on the database: up through a short outage, down past the threshold, up again when it answers. */
class DatabaseReadinessTest {

    static final HealthProperties PROPERTIES = new HealthProperties(Duration.ofSeconds(30), Duration.ofSeconds(2));

    final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    final AtomicReference<Mono<?>> database = new AtomicReference<>(Mono.just(1));
    final DatabaseReadiness readiness = new DatabaseReadiness(Mono.defer(database::get), PROPERTIES, clock);

    @Test
    void answeringDatabaseIsReady() {
        assertThat(check()).isEqualTo(Status.UP);
    }

    @Test
    void refusedDatabaseStaysReadyUntilTheThresholdThenIsNotReady() {
        database.set(Mono.error(new IllegalStateException("Connection refused")));
        assertThat(check()).isEqualTo(Status.UP);
        advance(Duration.ofSeconds(29));
        assertThat(check()).isEqualTo(Status.UP);
        advance(Duration.ofSeconds(1));
        assertThat(check()).isEqualTo(Status.DOWN);
        advance(Duration.ofMinutes(5));
        assertThat(check()).isEqualTo(Status.DOWN);
    }

    @Test
    void databaseAnsweringAgainIsReadyAtOnceAndAFreshOutageIsTimedAfresh() {
        database.set(Mono.error(new IllegalStateException("Connection refused")));
        check();
        advance(Duration.ofSeconds(40));
        assertThat(check()).isEqualTo(Status.DOWN);

        database.set(Mono.just(1));
        assertThat(check()).isEqualTo(Status.UP);

        database.set(Mono.error(new IllegalStateException("Connection refused")));
        advance(Duration.ofSeconds(10));
        assertThat(check()).as("a new outage counts from its own first failure").isEqualTo(Status.UP);
    }

    @Test
    void databaseThatDoesNotAnswerCountsAsUnreachableAfterTheCheckTimeout() {
        database.set(Mono.never());
        StepVerifier.withVirtualTime(readiness::health)
                .thenAwait(Duration.ofSeconds(2))
                .assertNext(health -> assertThat(health.getDetails()).containsKey("unreachableSince"))
                .verifyComplete();
        advance(Duration.ofSeconds(31));
        StepVerifier.withVirtualTime(readiness::health)
                .thenAwait(Duration.ofSeconds(2))
                .assertNext(health -> assertThat(health.getStatus()).isEqualTo(Status.DOWN))
                .verifyComplete();
    }

    private Status check() {
        Health health = readiness.health().block(Duration.ofSeconds(5));
        return health.getStatus();
    }

    private void advance(Duration by) {
        now.updateAndGet(instant -> instant.plus(by));
    }
}
