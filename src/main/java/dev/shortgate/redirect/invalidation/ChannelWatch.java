package dev.shortgate.redirect.invalidation;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Checks a subscription to the invalidation channel end to end, as {@link RedisInvalidationBus} describes: every
 * {@code check} a probe of this pod's own is published on the channel, and the subscription fails with
 * {@link ChannelLost} when a probe Redis took has not come back within two checks, or when Redis answers again after
 * two checks or more out of reach. Probes are taken out of the codes the subscription hands on.
 */
final class ChannelWatch {

    /** What every probe starts with: no code does, so every pod (older builds too) drops them. */
    static final String PROBE = "~probe:";

    private ChannelWatch() {}

    /**
     * @param messages what the subscription receives
     * @param publish  publishes a probe; fails when Redis did not take it
     * @param pod      this pod's own mark in its probes
     */
    static Flux<String> watch(
            Flux<String> messages, Function<String, Mono<?>> publish, String pod, Duration check, Scheduler timer) {
        return Flux.defer(() -> {
            Probes probes = new Probes(PROBE + pod + ":", check);
            Flux<String> codes = messages.filter(message -> {
                if (message.startsWith(PROBE)) {
                    probes.received(message);
                    return false;
                }
                return true;
            });
            Mono<String> watchdog = Flux.interval(check, check, timer)
                    .onBackpressureDrop() // ticks while a probe is being published are skipped
                    .concatMap(
                            tick -> {
                                ChannelLost lost = probes.verdict(tick);
                                if (lost != null) {
                                    return Mono.error(lost);
                                }
                                long probe = probes.sending(tick); // before: it may come back before the reply
                                return publish.apply(probes.name(probe))
                                        .doOnSuccess(taken -> probes.taken(tick))
                                        .onErrorResume(error -> {
                                            probes.notTaken(probe);
                                            return Mono.empty();
                                        })
                                        .then(Mono.<String>empty());
                            },
                            1)
                    .next();
            return Flux.merge(codes, watchdog);
        });
    }

    /** What one subscription's probes showed: which Redis took and have not come back, when Redis last took one. */
    private static final class Probes {

        private final String own;
        private final Duration check;
        private final AtomicLong sequence = new AtomicLong();
        private final Map<Long, Long> outstanding = new ConcurrentSkipListMap<>(); // probe -> the check it went at
        private volatile long lastContact; // the last check at which Redis took a probe (or the subscription began)
        private volatile boolean outOfReachThenBack;

        Probes(String own, Duration check) {
            this.own = own;
            this.check = check;
        }

        /** A new probe, outstanding from this check on. */
        long sending(long tick) {
            long probe = sequence.incrementAndGet();
            outstanding.put(probe, tick);
            return probe;
        }

        void notTaken(long probe) {
            outstanding.remove(probe);
        }

        String name(long probe) {
            return own + probe;
        }

        void taken(long tick) {
            if (tick - lastContact > 2) {
                outOfReachThenBack = true; // Redis was out of reach for two checks or more, and answers again
            }
            lastContact = tick;
        }

        void received(String message) {
            if (message.startsWith(own)) {
                try {
                    outstanding.remove(Long.parseLong(message.substring(own.length())));
                } catch (NumberFormatException e) {
                    // another pod's probe that merely starts like ours
                }
            }
        }

        /** Why the subscription must be made again at this check, or {@code null} when it is sound. */
        ChannelLost verdict(long tick) {
            if (outOfReachThenBack) {
                return new ChannelLost("Redis answers again after " + check.multipliedBy(2) + " or more out of reach");
            }
            for (long sentAt : outstanding.values()) {
                if (tick - sentAt >= 2) {
                    return new ChannelLost("a probe Redis took did not come back within " + check.multipliedBy(2));
                }
            }
            return null;
        }
    }

    /** The subscription may have missed messages: it is made again, and the near cache cleared. */
    static final class ChannelLost extends RuntimeException {
        ChannelLost(String why) {
            super("invalidation channel may have missed messages: " + why, null, false, false);
        }
    }
}
