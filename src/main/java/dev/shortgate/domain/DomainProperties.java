package dev.shortgate.domain;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Short domain settings ({@code shortgate.domains.*}).
 *
 * @param refreshInterval how often each pod reloads the list of domains from the database; a domain added or
 *                        removed on another pod is known here at most this much later (on the pod that made the
 *                        change, at once)
 * @param unknownHost     what a redirect whose host is none of the domains gets, once any domain besides the
 *                        default one exists: {@code default} serves it as the default domain, {@code refuse} answers
 *                        404 without a lookup
 * @param metricDomains   how many domains get a {@code domain} tag of their own on
 *                        {@code shortgate.domain.redirects}: the default domain and the first ones added, up to this
 *                        many in all; the redirects of any other count as {@code other}, so a pod publishes at most
 *                        this many series plus one however many domains there are
 */
@ConfigurationProperties("shortgate.domains")
@Validated
record DomainProperties(
        @NotNull @DefaultValue("5s") Duration refreshInterval,
        @NotNull @DefaultValue("default") UnknownHost unknownHost,
        @Positive @Max(100) @DefaultValue("20") int metricDomains) {

    /** What a redirect for a host that is none of the domains gets. */
    enum UnknownHost {
        DEFAULT,
        REFUSE
    }

    DomainProperties {
        if (refreshInterval.isNegative() || refreshInterval.isZero()) {
            throw new IllegalArgumentException("shortgate.domains.refresh-interval must be positive");
        }
    }
}
