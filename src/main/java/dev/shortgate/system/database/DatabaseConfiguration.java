package dev.shortgate.system.database;

import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.scheduler.Schedulers;

/**
 * The one answer to "which database": every feature that needs to know takes the {@link DatabaseDialect} bean; and
 * the one way a transaction that lost a write conflict is tried again ({@link ConflictRetry}).
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    @Bean
    DatabaseDialect databaseDialect(ConnectionFactory connectionFactory) {
        return DatabaseDialect.of(connectionFactory);
    }

    @Bean
    ConflictRetry conflictRetry(ConflictRetryProperties properties, MeterRegistry registry) {
        return new ConflictRetry(properties, Schedulers.parallel(), registry);
    }
}
