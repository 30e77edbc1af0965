package dev.shortgate.system.database;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What readiness asks of the backing stores. Redis is optional and never makes a pod unready.
 *
 * @param databaseUnreadyAfter how long the database may stay unreachable before the pod reports itself unready; a
 *                             shorter outage is served from memory and answered 503 for the rest
 * @param databaseTimeout      how long a readiness check waits for the database's answer
 */
@ConfigurationProperties("shortgate.health")
@Validated
record HealthProperties(
        @NotNull @DefaultValue("30s") Duration databaseUnreadyAfter,
        @NotNull @DefaultValue("2s") Duration databaseTimeout) {}
