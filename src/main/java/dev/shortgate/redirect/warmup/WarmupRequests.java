package dev.shortgate.redirect.warmup;

import java.util.UUID;

/**
 * Tells the pod's own warm-up requests from real ones: they carry a {@code User-Agent} made at startup from a random
 * UUID, which no client can know, so no client can make its visits vanish. A warm-up request is answered as any
 * other and recorded nowhere: no visit, no orphan visit, no metric, no hot code, no rate limit.
 */
public final class WarmupRequests {

    /** Marks no request. */
    public static final WarmupRequests NONE = new WarmupRequests(null);

    private final String userAgent;

    private WarmupRequests(String userAgent) {
        this.userAgent = userAgent;
    }

    static WarmupRequests random() {
        return new WarmupRequests("shortgate-warmup/" + UUID.randomUUID());
    }

    /** The {@code User-Agent} of the warm-up requests. */
    String userAgent() {
        return userAgent;
    }

    /** Whether a request with this {@code User-Agent} is the pod's own warm-up. */
    public boolean marks(String userAgent) {
        return this.userAgent != null && this.userAgent.equals(userAgent);
    }
}
