package dev.shortgate.system.database;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import reactor.core.publisher.Mono;

/**
 * Readiness on the database: up while the database answers, and through an outage shorter than
 * {@code shortgate.health.database-unready-after}, when hot links are still served from memory and every pod is
 * equally affected; down once it has been unreachable for longer, so that pods cut off from it (a partition, a
 * failover that moved away) leave rotation. The outage is timed from the first failed check after a good one.
 */
final class DatabaseReadiness implements ReactiveHealthIndicator {

    private final Mono<?> probe;
    private final Duration timeout;
    private final Duration unreadyAfter;
    private final Clock clock;
    private final AtomicReference<Instant> unreachableSince = new AtomicReference<>();

    /** {@code probe} completes (empty or with a value) when the database answered, and fails otherwise. */
    DatabaseReadiness(Mono<?> probe, HealthProperties properties, Clock clock) {
        this.probe = probe;
        this.timeout = properties.databaseTimeout();
        this.unreadyAfter = properties.databaseUnreadyAfter();
        this.clock = clock;
    }

    @Override
    public Mono<Health> health() {
        return probe.timeout(timeout)
                .then(Mono.fromSupplier(this::reachable))
                .onErrorResume(error -> Mono.fromSupplier(() -> unreachable(error)));
    }

    private Health reachable() {
        unreachableSince.set(null);
        return Health.up().build();
    }

    private Health unreachable(Throwable error) {
        Instant now = clock.instant();
        Instant since = unreachableSince.updateAndGet(first -> first == null ? now : first);
        Duration outage = Duration.between(since, now);
        Health.Builder health = outage.compareTo(unreadyAfter) >= 0 ? Health.down() : Health.up();
        return health.withDetail("unreachableSince", since.toString())
                .withDetail("unreadyAfter", unreadyAfter.toString())
                .withDetail("error", error.getClass().getSimpleName())
                .build();
    }
}
