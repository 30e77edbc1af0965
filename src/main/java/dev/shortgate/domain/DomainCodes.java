package dev.shortgate.domain;

import org.springframework.modulith.NamedInterface;

/**
 * The key a link is stored and cached under: its code on the default domain, {@code <domain id>~<code>} on any
 * other. {@code ~} is outside the code alphabet ({@code A-Za-z0-9_-}), so a key names exactly one (domain, code)
 * pair and no code of the default domain can look like another domain's key. Every table and cache keyed by code
 * (links and their 62-table split, rules, tags, visits and counts, create keys, Redis, the near cache, the
 * unknown-code guard) is thereby per domain, and the default domain's keys are exactly the codes they always were.
 */
@NamedInterface("registry")
public final class DomainCodes {

    /** Separates a domain's id from the code; never part of a code. */
    public static final char SEPARATOR = '~';

    /** Longest key (the link tables' {@code code} column). */
    public static final int MAX_KEY_LENGTH = 64;

    private DomainCodes() {}

    /** The key of {@code code} on the domain with this id. */
    public static String key(int domainId, String code) {
        return domainId == Domains.DEFAULT_ID ? code : domainId + String.valueOf(SEPARATOR) + code;
    }

    /** The key of {@code code} on {@code domain}. */
    public static String key(Domain domain, String code) {
        return key(domain.id(), code);
    }

    /** What a key of the domain with this id starts with: empty for the default domain. */
    public static String prefix(int domainId) {
        return domainId == Domains.DEFAULT_ID ? "" : domainId + String.valueOf(SEPARATOR);
    }

    /**
     * An SQL condition that holds for exactly the keys in {@code column} of the domain with this id. The id is an
     * int and the separator no LIKE wildcard, so the literal cannot inject anything.
     */
    public static String sqlMatch(String column, int domainId) {
        return domainId == Domains.DEFAULT_ID
                ? column + " NOT LIKE '%" + SEPARATOR + "%'"
                : column + " LIKE '" + prefix(domainId) + "%'";
    }

    /** The id of the domain a key belongs to. */
    public static int domainId(String key) {
        int at = key.indexOf(SEPARATOR);
        return at < 0 ? Domains.DEFAULT_ID : Integer.parseInt(key, 0, at, 10);
    }

    /** The code of a key, as its domain's visitors type it. */
    public static String code(String key) {
        int at = key.indexOf(SEPARATOR);
        return at < 0 ? key : key.substring(at + 1);
    }
}
