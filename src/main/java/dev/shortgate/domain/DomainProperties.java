package dev.shortgate.domain;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Short domain settings ({@code shortgate.domains.*}).
 *
 * @param refreshInterval how often each pod reloads the list of domains from the database; a domain added or
 *                        removed on another pod is known here at most this much later (on the pod that made the
 *                        change, at once)
 */
@ConfigurationProperties("shortgate.domains")
@Validated
record DomainProperties(@NotNull @DefaultValue("5s") Duration refreshInterval) {

    DomainProperties {
        if (refreshInterval.isNegative() || refreshInterval.isZero()) {
            throw new IllegalArgumentException("shortgate.domains.refresh-interval must be positive");
        }
    }
}
