package dev.shortgate.visit;

import java.util.function.Consumer;

import dev.shortgate.system.problem.Causes;
import io.r2dbc.spi.R2dbcBadGrammarException;
import org.springframework.r2dbc.BadSqlGrammarException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;

/**
 * How the visit writers retry: each attempt has a deadline ({@code write-timeout}), and a failed attempt is tried
 * again after an exponential, jittered backoff from {@code retry-backoff} capped at {@code retry-max-backoff}, for
 * as long as it takes (a database outage, a lock, a failover). Only a statement the database can never run (bad
 * grammar: a bug, not an outage) gives up at once; shutdown gives up by cancelling.
 */
public final class WriteRetry {

    private WriteRetry() {}

    public static <T> Mono<T> untilWritten(
            Mono<T> attempt, VisitProperties properties, Scheduler timer, Consumer<Retry.RetrySignal> beforeRetry) {
        return attempt.timeout(properties.writeTimeout(), timer)
                .retryWhen(Retry.backoff(
                                Long.MAX_VALUE,
                                properties.retryBackoff().isZero()
                                        ? java.time.Duration.ofMillis(1)
                                        : properties.retryBackoff())
                        .maxBackoff(properties.retryMaxBackoff())
                        .filter(error -> !neverSucceeds(error))
                        .scheduler(timer)
                        .doBeforeRetry(beforeRetry));
    }

    /** A failure that no retry can mend: the database rejected the statement itself. */
    public static boolean neverSucceeds(Throwable error) {
        return Causes.any(error, R2dbcBadGrammarException.class, BadSqlGrammarException.class);
    }
}
