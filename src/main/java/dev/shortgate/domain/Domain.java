package dev.shortgate.domain;

import java.time.Instant;

import org.springframework.modulith.NamedInterface;

/**
 * A short domain.
 *
 * @param id        {@value Domains#DEFAULT_ID} for the default domain, otherwise its row's id
 * @param host      the host name, lower-case punycode without a trailing dot
 * @param createdAt when it was added; {@code null} for the default domain, which has no row
 */
@NamedInterface("registry")
public record Domain(int id, String host, Instant createdAt) {

    public boolean isDefault() {
        return id == Domains.DEFAULT_ID;
    }
}
