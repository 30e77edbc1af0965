package dev.shortgate.redirect.guard;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.redirect.RedisCalls;
import io.lettuce.core.BitFieldArgs;
import io.lettuce.core.SetArgs;
import io.lettuce.core.Value;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.publisher.Mono;

/**
 * The shared Bloom filter of codes, one Redis string used as a bitmap: every create sets its code's bits before the
 * create answers, so every pod knows the code at once. Reads and writes are single {@code BITFIELD} commands.
 *
 * <p>One more bit, just past the filter's, says the filter is complete: it is set when a build from the database
 * has finished. A filter without it (never built, or lost with a Redis restart or an eviction, which takes the whole
 * key) answers "may exist" to everything, and the first pod to notice rebuilds it in the background under a lock
 * key, page by page of codes; creates during a build set their bits as usual. The key is named after the filter's
 * size, so a change of size builds a new filter instead of misreading the old one. The key and its lock share a hash
 * tag, so in a Redis Cluster they live on one shard; that shard holds the whole bitmap and answers every guard read.
 *
 * <p>Written by hand on Lettuce because the Bloom filters of Redis itself need the RedisBloom module, which a plain
 * Redis (and most managed ones) lacks; the bit positions are Guava's ({@link BloomShape}).
 */
public final class RedisCodeGuard implements UnknownCodeGuard, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RedisCodeGuard.class);
    private static final BitFieldArgs.BitFieldType BIT = BitFieldArgs.unsigned(1);
    private static final int PAGE = 2_000;
    private static final Duration BUILD_LOCK = Duration.ofMinutes(10);
    private static final Duration BUILD_RETRY = Duration.ofSeconds(30);

    private final RedisCalls redis;
    private final RedisCalls writes;
    private final LinkRepository links;
    private final BloomShape shape;
    private final String key;
    private final String lockKey;
    private final int complete; // the bit that says the filter is built
    private final Ticker ticker;
    private final AtomicLong nextBuildAttempt = new AtomicLong(Long.MIN_VALUE);
    private volatile boolean ready;
    private volatile boolean running;

    /** @param writes the calls new codes' bits are set through (past their breaker, bounded by their deadline) */
    public RedisCodeGuard(
            RedisCalls redis,
            RedisCalls writes,
            LinkRepository links,
            BloomShape shape,
            String keyPrefix,
            Ticker ticker) {
        if (shape.bits() >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "A Redis bitmap holds at most 2^31 bits; the guard needs " + shape.bits());
        }
        this.redis = redis;
        this.writes = writes;
        this.links = links;
        this.shape = shape;
        // One hash tag for the bitmap and its lock, so a Redis Cluster keeps them on one shard (the two are never
        // in one command today; a build that checked the lock in a script could then still run there).
        this.key = keyPrefix + "{guard:" + shape.bits() + ":" + shape.hashes() + "}";
        this.lockKey = key + ":building";
        this.complete = (int) shape.bits();
        this.ticker = ticker;
    }

    @Override
    public Mono<Boolean> mayExist(String code) {
        BitFieldArgs reads = new BitFieldArgs();
        for (long position : shape.positions(code)) {
            reads.get(BIT, (int) position);
        }
        reads.get(BIT, complete);
        return redis.call(RedisCalls.Operation.GUARD, commands -> commands.strings()
                        .bitfield(key, reads)
                        .map(Value::getValue)
                        .collectList())
                .map(bits -> {
                    boolean built = bits.get(bits.size() - 1) == 1L;
                    ready = built;
                    if (!built) {
                        buildSoon();
                        return true;
                    }
                    return !bits.subList(0, bits.size() - 1).contains(0L);
                })
                .onErrorResume(error -> Mono.just(true)); // unreadable: let the database answer
    }

    @Override
    public Mono<Void> add(String code) {
        return addAll(List.of(code));
    }

    /** Sets the bits of every code with one {@code BITFIELD}. */
    @Override
    public Mono<Void> addAll(List<String> codes) {
        // Past this pod's breaker: other pods trust these bits to answer 404 (see RedisCalls.callPastBreaker).
        return writes.callPastBreaker(
                RedisCalls.Operation.GUARD,
                commands -> commands.strings().bitfield(key, sets(codes)).then());
    }

    /** The bitmap's key and its build lock's, in that order. */
    public List<String> keys() {
        return List.of(key, lockKey);
    }

    @Override
    public boolean ready() {
        return ready;
    }

    private BitFieldArgs sets(List<String> codes) {
        BitFieldArgs sets = new BitFieldArgs();
        for (String code : codes) {
            for (long position : shape.positions(code)) {
                sets.set(BIT, (int) position, 1);
            }
        }
        return sets;
    }

    /** Looks at the filter once at startup, so a missing one is built before the first flood rather than during it. */
    @Override
    public void start() {
        running = true;
        mayExist("0").subscribe();
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the shared Redis connection has been opened. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }

    /** Starts a build in the background unless one was tried a moment ago (on this pod) or runs (on any pod). */
    private void buildSoon() {
        long now = ticker.read();
        long next = nextBuildAttempt.get();
        if (now < next || !nextBuildAttempt.compareAndSet(next, now + BUILD_RETRY.toNanos())) {
            return;
        }
        build().subscribe(
                        null,
                        error -> log.warn(
                                "Could not build the unknown-code guard; lookups of unknown "
                                        + "codes reach the database meanwhile: {}",
                                error.toString()));
    }

    /** Builds the filter from every code in the database, if no other pod is building it now. */
    Mono<Void> build() {
        return redis.unguarded()
                .flatMap(commands -> commands.strings()
                        .set(lockKey, new byte[] {1}, SetArgs.Builder.nx().px(BUILD_LOCK.toMillis()))
                        .flatMap(locked -> {
                            log.info(
                                    "Building the unknown-code guard from the database ({} bits, {} hashes)",
                                    shape.bits(),
                                    shape.hashes());
                            AtomicLong added = new AtomicLong();
                            return links.allCodes(PAGE)
                                    .buffer(PAGE)
                                    .concatMap(page -> commands.strings()
                                            .bitfield(key, sets(page))
                                            .then(Mono.fromRunnable(() -> added.addAndGet(page.size()))))
                                    .then(commands.strings()
                                            .bitfield(key, new BitFieldArgs().set(BIT, complete, 1))
                                            .then())
                                    .then(commands.keys().del(lockKey))
                                    .doOnSuccess(done -> {
                                        ready = true;
                                        log.info("Built the unknown-code guard: {} codes", added.get());
                                    });
                        }))
                .then();
    }
}
