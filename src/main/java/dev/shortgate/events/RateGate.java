package dev.shortgate.events;

import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Ticker;

/**
 * A token bucket of {@code rate} tokens a second that holds a second's worth, kept as the generic cell rate
 * algorithm: one number, the time the bucket will be full again ({@code full}). A token is taken when the bucket
 * holds one ({@code full - now} at most a second less one token's time), and taking it moves {@code full} one
 * token's time later. A refusal writes nothing: it costs a clock read and a volatile read, so the event loops of a
 * saturated pod, where nearly every visit is refused, do not contend on a shared line nor allocate (Bucket4j's
 * lock-free bucket copies its state on every call, even to refuse).
 */
final class RateGate {

    private static final long SECOND = 1_000_000_000L;

    private final Ticker ticker;
    /** Time one token takes to come back, in nanoseconds. */
    private final long interval;
    /** How far ahead of now {@link #full} may be for a token to be taken: the bucket's capacity, less one token. */
    private final long slack;
    /** When the bucket is full again, on {@link #ticker}'s time; now or earlier when it is full. */
    private final AtomicLong full;

    /** @param rate tokens a second, and the bucket's capacity; positive */
    RateGate(int rate, Ticker ticker) {
        if (rate <= 0) {
            throw new IllegalArgumentException("rate must be positive: " + rate);
        }
        this.ticker = ticker;
        this.interval = SECOND / rate;
        this.slack = interval * (rate - 1L);
        this.full = new AtomicLong(ticker.read());
    }

    /** Takes a token if the bucket holds one; never waits. */
    boolean tryTake() {
        long now = ticker.read();
        long at = full.get();
        while (at - now <= slack) {
            if (full.compareAndSet(at, Math.max(at, now) + interval)) {
                return true;
            }
            at = full.get();
        }
        return false;
    }
}
