package dev.shortgate.system.database;

import io.r2dbc.spi.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one answer to "which database": every feature that needs to know takes the {@link DatabaseDialect} bean. */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    @Bean
    DatabaseDialect databaseDialect(ConnectionFactory connectionFactory) {
        return DatabaseDialect.of(connectionFactory);
    }
}
