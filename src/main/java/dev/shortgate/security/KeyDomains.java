package dev.shortgate.security;

import org.springframework.modulith.NamedInterface;

/**
 * The short domains a key may be limited to, as the domain feature knows them. This feature defines it and the
 * domain feature implements it, so keys can name domains without this feature depending on that one.
 */
@NamedInterface("principal")
public interface KeyDomains {

    /**
     * The id of the registered domain {@code host} names (any case, Unicode or punycode); a problem
     * ({@code invalid-domain}, {@code unknown-domain}) when it is none.
     */
    int idOf(String host);

    /** The host of the domain with this id, or {@code null} when it has been removed. */
    String hostOfId(int id);
}
