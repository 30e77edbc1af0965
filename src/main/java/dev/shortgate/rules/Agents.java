package dev.shortgate.rules;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Classified user agents, kept for the most recent few thousand, so a redirect with device or browser rules costs a
 * hash look-up for a returning agent (real traffic has few distinct agents) and a few substring tests otherwise.
 * Agents longer than {@value #MAX_CACHED_LENGTH} characters are classified each time and never kept, so a flood of
 * giant random agents cannot fill the cache with big keys.
 */
final class Agents {

    static final int MAX_CACHED_LENGTH = 512;

    private final Cache<String, Agent> cache;

    Agents(long maximumSize) {
        this.cache = Caffeine.newBuilder().maximumSize(maximumSize).build();
    }

    Agent of(String userAgent) {
        if (userAgent == null || userAgent.length() > MAX_CACHED_LENGTH) {
            return Agent.classify(userAgent);
        }
        Agent known = cache.getIfPresent(userAgent);
        if (known == null) {
            known = Agent.classify(userAgent);
            cache.put(userAgent, known);
        }
        return known;
    }
}
