package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.security.ClientIpResolver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.reactive.function.server.MockServerRequest;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

class VisitRecorderTest {

    private static final Duration FLUSH = Duration.ofMillis(250);
    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<List<RawVisit>> written = new CopyOnWriteArrayList<>();

    // --- Batching, in virtual time -------------------------------------------------------------------------------

    @Test
    void batchIsEmittedAsSoonAsItReachesMaxSize() {
        StepVerifier.withVirtualTime(() -> VisitRecorder.batches(Flux.range(1, 6).concatWith(Flux.never()), 3, FLUSH,
                        Schedulers.parallel()))
                .expectSubscription()
                .expectNext(List.of(1, 2, 3), List.of(4, 5, 6))
                .expectNoEvent(Duration.ofHours(1))
                .thenCancel()
                .verify();
    }

    @Test
    void partialBatchIsEmittedWhenMaxTimeHasPassed() {
        StepVerifier.withVirtualTime(() -> VisitRecorder.batches(Flux.just(1, 2).concatWith(Flux.never()), 3, FLUSH,
                        Schedulers.parallel()))
                .expectSubscription()
                .expectNoEvent(FLUSH.minusMillis(1))
                .thenAwait(Duration.ofMillis(1))
                .expectNext(List.of(1, 2))
                .expectNoEvent(Duration.ofHours(1))
                .thenCancel()
                .verify();
    }

    @Test
    void partialBatchIsFlushedOnCompletionWithoutWaitingForMaxTime() {
        StepVerifier.withVirtualTime(() -> VisitRecorder.batches(Flux.range(1, 4)
                                .concatWith(Mono.delay(Duration.ofMillis(100)).then(Mono.empty())), 3, FLUSH,
                        Schedulers.parallel()))
                .expectSubscription()
                .expectNext(List.of(1, 2, 3))
                .thenAwait(Duration.ofMillis(100))
                .expectNext(List.of(4))
                .verifyComplete();
    }

    // --- The recorder --------------------------------------------------------------------------------------------

    @Test
    void visitsAreWrittenInBatchesBySizeThenByTimeAndCounted() {
        VisitRecorder recorder = recorder(props(100, 3, 0), batch -> {
            written.add(batch);
            return Mono.empty();
        });
        recorder.start();

        offer(recorder, 7);

        assertThat(written).extracting(List::size).containsExactly(3, 3);
        time.advanceTimeBy(FLUSH);
        assertThat(written).extracting(List::size).containsExactly(3, 3, 1);
        assertThat(registry.get("shortgate.visits.written").counter().count()).isEqualTo(7);
        assertThat(registry.get("shortgate.visits.batch.size").summary().count()).isEqualTo(3);
        assertThat(registry.get("shortgate.visits.flush").timer().count()).isEqualTo(3);
        assertThat(registry.get("shortgate.visits.buffered").gauge().value()).isZero();
        assertThat(dropped("buffer_full") + dropped("write_failed") + dropped("shutdown")).isZero();
    }

    @Test
    void fullBufferDropsAndCountsWithoutDelayingRedirect() {
        int capacity = 10;
        int sent = 25;
        VisitRecorder recorder = recorder(props(capacity, 4, 0), batch -> Mono.never()); // the writer is held back
        recorder.start();

        int accepted = offer(recorder, sent);
        time.advanceTimeBy(Duration.ofSeconds(10));

        assertThat(accepted).isEqualTo(capacity);
        assertThat(dropped("buffer_full")).isEqualTo(sent - capacity);
        assertThat(recorder.held()).isEqualTo(capacity);
        assertThat(registry.get("shortgate.visits.buffered").gauge().value()).isEqualTo(capacity);
    }

    @Test
    void capacityIsFreedOnceABatchIsWritten() {
        VisitRecorder recorder = recorder(props(4, 4, 0), batch -> {
            written.add(batch);
            return Mono.empty();
        });
        recorder.start();

        assertThat(offer(recorder, 4)).isEqualTo(4);
        assertThat(offer(recorder, 4)).isEqualTo(4);

        assertThat(dropped("buffer_full")).isZero();
        assertThat(written).hasSize(2);
    }

    @Test
    void failedWriteIsRetriedWithBackoffThenSucceeds() {
        AtomicInteger attempts = new AtomicInteger();
        VisitRecorder recorder = recorder(props(100, 2, 3), batch -> Mono.defer(() -> attempts.incrementAndGet() < 3
                ? Mono.error(new IllegalStateException("database down")) : Mono.<Void>empty()));
        recorder.start();

        offer(recorder, 2);
        assertThat(attempts).hasValue(1);
        time.advanceTimeBy(Duration.ofSeconds(5));

        assertThat(attempts).hasValue(3);
        assertThat(registry.get("shortgate.visits.written").counter().count()).isEqualTo(2);
        assertThat(dropped("write_failed")).isZero();
        assertThat(recorder.held()).isZero();
    }

    @Test
    void batchThatKeepsFailingIsDroppedAndCountedAfterItsRetries() {
        AtomicInteger attempts = new AtomicInteger();
        VisitRecorder recorder = recorder(props(100, 5, 2), batch -> Mono.defer(() -> {
            attempts.incrementAndGet();
            return Mono.error(new IllegalStateException("database down"));
        }));
        recorder.start();

        offer(recorder, 5);
        time.advanceTimeBy(Duration.ofMinutes(1));

        assertThat(attempts).hasValue(3);
        assertThat(dropped("write_failed")).isEqualTo(5);
        assertThat(registry.get("shortgate.visits.written").counter().count()).isZero();
        assertThat(recorder.held()).isZero();
    }

    @Test
    void stopFlushesThePartialBatchBeforeCallingBack() {
        VisitRecorder recorder = recorder(props(100, 500, 0), batch -> {
            written.add(batch);
            return Mono.empty();
        });
        recorder.start();
        offer(recorder, 3);
        AtomicBoolean stopped = new AtomicBoolean();

        recorder.stop(() -> stopped.set(true));

        assertThat(written).extracting(List::size).containsExactly(3);
        assertThat(stopped).isTrue();
        assertThat(recorder.isRunning()).isFalse();
        assertThat(recorder.offer(visit("late"))).isFalse();
        assertThat(dropped("shutdown")).isEqualTo(1);
    }

    @Test
    void stopGivesUpAfterTheFlushTimeoutAndCountsWhatWasStillHeld() {
        VisitRecorder recorder = recorder(props(100, 2, 0), batch -> Mono.never());
        recorder.start();
        offer(recorder, 5);
        AtomicBoolean stopped = new AtomicBoolean();

        recorder.stop(() -> stopped.set(true));
        assertThat(stopped).isFalse();
        time.advanceTimeBy(Duration.ofSeconds(10));

        assertThat(stopped).isTrue();
        assertThat(dropped("shutdown")).isEqualTo(5);
        assertThat(recorder.held()).isZero();
    }

    @Test
    void recordTakesRealPeerTruncatedAgentAndRefererFromTheRequest() throws Exception {
        VisitRecorder recorder = recorder(props(100, 1, 0), batch -> {
            written.add(batch);
            return Mono.empty();
        });
        recorder.start();

        recorder.record(MockServerRequest.builder()
                .remoteAddress(new InetSocketAddress(InetAddress.getByName("203.0.113.9"), 5555))
                .header("X-Forwarded-For", "1.2.3.4")
                .header("User-Agent", "A".repeat(600))
                .header("Referer", "https://news.example/item")
                .build(), "abc");

        assertThat(written).hasSize(1);
        RawVisit visit = written.get(0).get(0);
        assertThat(visit.code()).isEqualTo("abc");
        assertThat(visit.ip()).isEqualTo(InetAddress.getByName("203.0.113.9"));
        assertThat(visit.userAgent()).hasSize(512);
        assertThat(visit.referer()).isEqualTo("https://news.example/item");
        assertThat(visit.at()).isEqualTo(NOW);
        assertThat(visit.id()).hasSize(12);
    }

    @Test
    void disabledRecorderRecordsNothing() {
        VisitProperties off = new VisitProperties(false, 100, 1, FLUSH, 1, 0, Duration.ofMillis(10),
                Duration.ofSeconds(10), 512, 1024, false, List.of(), null, null);
        VisitRecorder recorder = recorder(off, batch -> {
            written.add(batch);
            return Mono.empty();
        });
        recorder.start();

        recorder.record(MockServerRequest.builder().build(), "abc");

        assertThat(recorder.isRunning()).isFalse();
        assertThat(written).isEmpty();
        assertThat(recorder.held()).isZero();
    }

    @Test
    void truncateNeverSplitsASurrogatePair() {
        assertThat(VisitRecorder.truncate("ab\uD83D\uDE00", 3)).isEqualTo("ab");
        assertThat(VisitRecorder.truncate("abc", 3)).isEqualTo("abc");
        assertThat(VisitRecorder.truncate(null, 3)).isNull();
    }

    // --- Helpers -------------------------------------------------------------------------------------------------

    private VisitRecorder recorder(VisitProperties properties, VisitRecorder.BatchWriter writer) {
        return new VisitRecorder(properties, new ClientIpResolver(List.of()), new VisitId(), writer,
                Clock.fixed(NOW, ZoneOffset.UTC), time, registry);
    }

    private static VisitProperties props(int capacity, int batchSize, int retries) {
        return new VisitProperties(true, capacity, batchSize, FLUSH, 2, retries, Duration.ofMillis(100),
                Duration.ofSeconds(10), 512, 1024, false, List.of(), null, null);
    }

    private static int offer(VisitRecorder recorder, int count) {
        int accepted = 0;
        for (int i = 0; i < count; i++) {
            if (recorder.offer(visit("c" + i))) {
                accepted++;
            }
        }
        return accepted;
    }

    private static RawVisit visit(String code) {
        return new RawVisit(new byte[12], code, NOW, null, "agent", null);
    }

    private double dropped(String reason) {
        return registry.get("shortgate.visits.dropped").tag("reason", reason).counter().count();
    }
}
