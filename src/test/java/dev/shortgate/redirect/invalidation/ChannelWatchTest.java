package dev.shortgate.redirect.invalidation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The end-to-end check of a subscription to the invalidation channel: probes that come back keep it, a probe Redis
 * took that never comes back ends it, and so does Redis answering again after two checks or more out of reach.
 */
class ChannelWatchTest {

    static final Duration CHECK = Duration.ofSeconds(2);

    final VirtualTimeScheduler timer = VirtualTimeScheduler.create();
    final Sinks.Many<String> channel = Sinks.many().multicast().directBestEffort();
    final List<String> published = new ArrayList<>();
    final AtomicBoolean reachable = new AtomicBoolean(true);
    final AtomicBoolean delivered = new AtomicBoolean(true);

    /** Publishes like Redis would: taken when reachable, and delivered back when the subscription is sound. */
    Mono<?> publish(String probe) {
        return Mono.defer(() -> {
            if (!reachable.get()) {
                return Mono.error(new IllegalStateException("Redis out of reach"));
            }
            published.add(probe);
            if (delivered.get()) {
                channel.tryEmitNext(probe);
            }
            return Mono.just(1L);
        });
    }

    StepVerifier.FirstStep<String> watching() {
        return StepVerifier.create(ChannelWatch.watch(channel.asFlux(), this::publish, "pod-a", CHECK, timer));
    }

    @Test
    void probesThatComeBackKeepTheSubscriptionAndNeverReachTheCodes() {
        watching()
                .then(() -> channel.tryEmitNext("abc1234"))
                .expectNext("abc1234")
                .then(() -> channel.tryEmitNext("~probe:pod-b:1")) // another pod's probe
                .then(() -> timer.advanceTimeBy(CHECK.multipliedBy(20)))
                .then(() -> channel.tryEmitNext("xyz"))
                .expectNext("xyz")
                .thenCancel()
                .verify(Duration.ofSeconds(5));
        org.assertj.core.api.Assertions.assertThat(published).hasSize(20);
    }

    @Test
    void aProbeRedisTookThatNeverComesBackEndsTheSubscriptionAfterTwoChecks() {
        watching()
                .then(() -> timer.advanceTimeBy(CHECK.multipliedBy(3))) // three probes came back
                .then(() -> delivered.set(false)) // the subscription went deaf; Redis still takes probes
                .then(() -> timer.advanceTimeBy(CHECK.multipliedBy(2))) // probe 4 out, not back yet
                .expectNoEvent(Duration.ZERO)
                .then(() -> delivered.set(true)) // later probes come back: probe 4 stays lost
                .then(() -> timer.advanceTimeBy(CHECK))
                .expectError(ChannelWatch.ChannelLost.class)
                .verify(Duration.ofSeconds(5));
    }

    @Test
    void redisAnsweringAgainAfterTwoChecksOutOfReachEndsTheSubscription() {
        watching()
                .then(() -> timer.advanceTimeBy(CHECK))
                .then(() -> reachable.set(false))
                .then(() -> timer.advanceTimeBy(CHECK.multipliedBy(3)))
                .expectNoEvent(Duration.ZERO)
                .then(() -> reachable.set(true))
                .then(() -> timer.advanceTimeBy(CHECK.multipliedBy(2)))
                .expectError(ChannelWatch.ChannelLost.class)
                .verify(Duration.ofSeconds(5));
    }

    @Test
    void oneProbeRedisDidNotTakeEndsNothing() {
        watching()
                .then(() -> timer.advanceTimeBy(CHECK))
                .then(() -> reachable.set(false))
                .then(() -> timer.advanceTimeBy(CHECK)) // one failed publish: a timeout under load, say
                .then(() -> reachable.set(true))
                .then(() -> timer.advanceTimeBy(CHECK.multipliedBy(10)))
                .expectNoEvent(Duration.ZERO)
                .thenCancel()
                .verify(Duration.ofSeconds(5));
    }
}
