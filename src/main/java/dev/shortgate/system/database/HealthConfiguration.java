package dev.shortgate.system.database;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * The readiness group is {@code readinessState}, {@code databaseReachable} and redirect's {@code warmedUp} (application.yaml): a database
 * unreachable for longer than a threshold makes the pod unready; Redis, being optional, never does.
 */
@Configuration(proxyBeanMethods = false)
class HealthConfiguration {

    @Bean
    DatabaseReadiness databaseReachable(DatabaseClient database, HealthProperties properties, Clock clock) {
        return new DatabaseReadiness(database.sql("SELECT 1").fetch().first(), properties, clock);
    }
}
