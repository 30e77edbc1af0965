package dev.shortgate.system.database;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.shortgate.system.problem.Causes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.R2dbcException;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;

/**
 * Tries a whole transaction again when it lost a write conflict to another transaction: on a Galera cluster two nodes
 * that change the same row (or claim the same unique key) at once both succeed locally, and the one certified second
 * fails at COMMIT with error 1213 (the same code InnoDB gives a deadlock victim); error 1205 is a lock wait that timed
 * out. Either way the database rolled the work back and nothing was written, so the work may run again from its first
 * read: a create's find-if-exists then finds the link the winner made, a patch re-reads the version.
 *
 * <p>Attempts are bounded ({@link ConflictRetryProperties}) and spaced by a jittered exponential backoff, so writers
 * that collided do not collide again in step. When the attempts run out the conflict's own error goes on, which
 * {@code Failures} classes as unavailable (503 with {@code Retry-After}), never 500.
 *
 * <p>Meters: {@code shortgate.database.conflicts{operation}} counts every attempt that lost a conflict, and {@code
 * shortgate.database.retries{operation,result}} every transaction that met one, by how it ended ({@code succeeded}
 * or {@code exhausted}). {@code operation} is one of a few fixed names ({@code create}, {@code patch}, ...).
 */
public final class ConflictRetry {

    /** ER_LOCK_DEADLOCK: an InnoDB deadlock victim, or a Galera certification failure / brute-force abort. */
    public static final int DEADLOCK = 1213;

    /** ER_LOCK_WAIT_TIMEOUT. */
    public static final int LOCK_WAIT_TIMEOUT = 1205;

    /** SQLSTATE of a serialization failure (1213's, and the standard's): how other drivers report it. */
    private static final String SERIALIZATION_FAILURE = "40001";

    private final ConflictRetryProperties properties;
    private final Scheduler timer;
    private final MeterRegistry registry;
    private final Map<String, Meters> meters = new ConcurrentHashMap<>();

    public ConflictRetry(ConflictRetryProperties properties, Scheduler timer, MeterRegistry registry) {
        this.properties = properties;
        this.timer = timer;
        this.registry = registry;
    }

    /** Whether the error, or one of its causes, is a write conflict that a new attempt of the transaction may win. */
    public static boolean isConflict(Throwable error) {
        return Causes.of(error)
                .filter(R2dbcException.class::isInstance)
                .map(R2dbcException.class::cast)
                .anyMatch(e -> e.getErrorCode() == DEADLOCK
                        || e.getErrorCode() == LOCK_WAIT_TIMEOUT
                        || SERIALIZATION_FAILURE.equals(e.getSqlState()));
    }

    /**
     * Runs {@code transaction}, subscribing again while it fails with a write conflict, at most {@code attempts} times
     * in all. The transaction must be whole on its own (its own reads, its own BEGIN/COMMIT or a single statement)
     * and must not tell anyone of its result before it has committed, and it must do its work anew on each subscription
     * (a {@link Mono#defer} or a cold database call). Any other error passes through at once.
     */
    public <T> Mono<T> transaction(String operation, Mono<T> transaction) {
        Meters m = meters(operation);
        return Mono.defer(() -> {
            int[] conflicts = {0};
            return transaction
                    .doOnError(error -> {
                        if (isConflict(error)) {
                            conflicts[0]++;
                            m.conflicts.increment();
                        }
                    })
                    .retryWhen(policy())
                    .onErrorMap(Exceptions::isRetryExhausted, error -> {
                        m.exhausted.increment();
                        return error.getCause();
                    })
                    .doOnSuccess(done -> {
                        if (conflicts[0] > 0) {
                            m.succeeded.increment();
                        }
                    });
        });
    }

    /**
     * Counts a conflict that a retry loop of its own tries again (the visit writers retry every failure until
     * written) under {@code shortgate.database.conflicts{operation}}; does nothing for any other error.
     */
    public static void seen(MeterRegistry registry, String operation, Throwable error) {
        if (isConflict(error)) {
            Meters.conflicts(registry, operation).increment();
        }
    }

    /** The retry policy: conflicts only, bounded, jittered exponential backoff on this retry's timer. */
    Retry policy() {
        Duration first = properties.backoff().isZero() ? Duration.ofMillis(1) : properties.backoff();
        return Retry.backoff(properties.attempts() - 1L, first)
                .maxBackoff(properties.maxBackoff().compareTo(first) < 0 ? first : properties.maxBackoff())
                .jitter(0.5)
                .filter(ConflictRetry::isConflict)
                .scheduler(timer);
    }

    private Meters meters(String operation) {
        return meters.computeIfAbsent(operation, op -> new Meters(registry, op));
    }

    private static final class Meters {
        final Counter conflicts;
        final Counter succeeded;
        final Counter exhausted;

        Meters(MeterRegistry registry, String operation) {
            conflicts = conflicts(registry, operation);
            succeeded = retries(registry, operation, "succeeded");
            exhausted = retries(registry, operation, "exhausted");
        }

        static Counter conflicts(MeterRegistry registry, String operation) {
            return Counter.builder("shortgate.database.conflicts")
                    .tag("operation", operation)
                    .description("Database transactions that lost a write conflict (error 1213 or 1205)")
                    .register(registry);
        }

        private static Counter retries(MeterRegistry registry, String operation, String result) {
            return Counter.builder("shortgate.database.retries")
                    .tag("operation", operation)
                    .tag("result", result)
                    .description("Transactions tried again after a write conflict, by how they ended")
                    .register(registry);
        }
    }
}
