package dev.shortgate.security;

import java.util.Locale;

import org.springframework.modulith.NamedInterface;

/** What an API key may do. */
@NamedInterface("principal")
public enum ApiScope {
    /** Everything, including managing keys and changing any link. */
    ADMIN,
    /** Create links, and read and change the links this key created. */
    CREATE,
    /** Read links and their statistics. */
    READ;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ApiScope parse(String value) {
        for (ApiScope scope : values()) {
            if (scope.value().equalsIgnoreCase(value)) {
                return scope;
            }
        }
        throw new IllegalArgumentException("Unknown scope '" + value + "'; use admin, create or read");
    }
}
