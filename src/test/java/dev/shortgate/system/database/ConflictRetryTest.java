package dev.shortgate.system.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.r2dbc.spi.R2dbcBadGrammarException;
import io.r2dbc.spi.R2dbcDataIntegrityViolationException;
import io.r2dbc.spi.R2dbcTimeoutException;
import io.r2dbc.spi.R2dbcTransientResourceException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.TransientDataAccessResourceException;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

class ConflictRetryTest {

    private static final ConflictRetryProperties PROPERTIES =
            new ConflictRetryProperties(4, Duration.ofMillis(10), Duration.ofMillis(40));

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final VirtualTimeScheduler timer = VirtualTimeScheduler.create();
    private final ConflictRetry retry = new ConflictRetry(PROPERTIES, timer, registry);

    /** What r2dbc-mysql reports for a certification failure, wrapped the way Spring's DatabaseClient wraps it. */
    private static RuntimeException certificationFailure() {
        return new TransientDataAccessResourceException(
                "executeMany",
                new R2dbcTransientResourceException(
                        "Deadlock found when trying to get lock; try restarting transaction", "40001", 1213));
    }

    @Test
    void certificationFailuresAndLockWaitTimeoutsAreConflictsAndDuplicateKeysAndBadSqlAreNot() {
        assertThat(ConflictRetry.isConflict(certificationFailure())).isTrue();
        assertThat(ConflictRetry.isConflict(new R2dbcTimeoutException("Lock wait timeout exceeded", "HY000", 1205)))
                .isTrue();
        assertThat(ConflictRetry.isConflict(new R2dbcTransientResourceException("serialization", "40001", 0)))
                .isTrue();
        assertThat(ConflictRetry.isConflict(new R2dbcDataIntegrityViolationException("Duplicate entry", "23000", 1062)))
                .isFalse();
        assertThat(ConflictRetry.isConflict(new R2dbcBadGrammarException("syntax", "42000", 1064)))
                .isFalse();
        assertThat(ConflictRetry.isConflict(new IllegalStateException("no database error")))
                .isFalse();
    }

    @Test
    void aTransactionThatLosesTwiceRunsAgainFromItsStartAfterJitteredBackoffAndIsCountedOnce() {
        AtomicInteger runs = new AtomicInteger();
        Mono<String> transaction = Mono.defer(
                () -> runs.incrementAndGet() <= 2 ? Mono.error(certificationFailure()) : Mono.just("committed"));

        StepVerifier.create(retry.transaction("create", transaction))
                .then(() -> assertThat(runs).hasValue(1))
                // first wait 10 ms +- 50%, second 20 ms +- 50%: both are over after 45 ms, neither before 5 ms
                .then(() -> timer.advanceTimeBy(Duration.ofMillis(4)))
                .then(() -> assertThat(runs).hasValue(1))
                .then(() -> timer.advanceTimeBy(Duration.ofMillis(41)))
                .expectNext("committed")
                .verifyComplete();

        assertThat(runs).hasValue(3);
        assertThat(count("shortgate.database.conflicts", "create", null)).isEqualTo(2.0);
        assertThat(count("shortgate.database.retries", "create", "succeeded")).isEqualTo(1.0);
        assertThat(count("shortgate.database.retries", "create", "exhausted")).isZero();
    }

    @Test
    void aTransactionThatKeepsLosingGivesUpAfterTheAttemptsWithTheConflictItself() {
        AtomicInteger runs = new AtomicInteger();
        Mono<String> transaction = Mono.defer(() -> {
            runs.incrementAndGet();
            return Mono.error(certificationFailure());
        });

        StepVerifier.create(retry.transaction("patch", transaction))
                .then(() -> timer.advanceTimeBy(Duration.ofSeconds(1)))
                .expectErrorSatisfies(error -> {
                    assertThat(error).isInstanceOf(TransientDataAccessResourceException.class);
                    assertThat(ConflictRetry.isConflict(error)).isTrue();
                })
                .verify(Duration.ofSeconds(5));

        assertThat(runs).hasValue(PROPERTIES.attempts());
        assertThat(count("shortgate.database.conflicts", "patch", null)).isEqualTo(4.0);
        assertThat(count("shortgate.database.retries", "patch", "exhausted")).isEqualTo(1.0);
        assertThat(count("shortgate.database.retries", "patch", "succeeded")).isZero();
    }

    @Test
    void anyOtherErrorEndsTheTransactionAtOnceWithoutARetry() {
        AtomicInteger runs = new AtomicInteger();
        Mono<String> transaction = Mono.defer(() -> {
            runs.incrementAndGet();
            return Mono.error(new R2dbcDataIntegrityViolationException("Duplicate entry", "23000", 1062));
        });

        StepVerifier.create(retry.transaction("create", transaction))
                .expectError(R2dbcDataIntegrityViolationException.class)
                .verify(Duration.ofSeconds(5));

        assertThat(runs).hasValue(1);
        assertThat(count("shortgate.database.conflicts", "create", null)).isZero();
    }

    @Test
    void aConflictRetriedElsewhereIsCountedAndOtherFailuresAreNot() {
        ConflictRetry.seen(registry, "visit_flush", certificationFailure());
        ConflictRetry.seen(registry, "visit_flush", new IllegalStateException("connection refused"));

        assertThat(count("shortgate.database.conflicts", "visit_flush", null)).isEqualTo(1.0);
    }

    private double count(String name, String operation, String result) {
        var search = registry.find(name).tag("operation", operation);
        if (result != null) {
            search = search.tag("result", result);
        }
        var counter = search.counter();
        return counter == null ? 0 : counter.count();
    }
}
