package dev.shortgate.visit.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

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
import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.VisitId;
import dev.shortgate.visit.VisitProperties;
import dev.shortgate.visit.counts.UniqueVisitors;
import dev.shortgate.visit.counts.VisitCountFlusher;
import dev.shortgate.visit.counts.VisitTally;
import dev.shortgate.visit.enrich.GeoLocator;
import dev.shortgate.visit.enrich.UserAgentParser;
import dev.shortgate.visit.enrich.VisitEnricher;
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
        StepVerifier.withVirtualTime(() -> VisitRecorder.batches(
                        Flux.range(1, 6).concatWith(Flux.never()), 3, FLUSH, Schedulers.parallel()))
                .expectSubscription()
                .expectNext(List.of(1, 2, 3), List.of(4, 5, 6))
                .expectNoEvent(Duration.ofHours(1))
                .thenCancel()
                .verify();
    }

    @Test
    void partialBatchIsEmittedWhenMaxTimeHasPassed() {
        StepVerifier.withVirtualTime(() -> VisitRecorder.batches(
                        Flux.just(1, 2).concatWith(Flux.never()), 3, FLUSH, Schedulers.parallel()))
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
        StepVerifier.withVirtualTime(() -> VisitRecorder.batches(
                        Flux.range(1, 4)
                                .concatWith(Mono.delay(Duration.ofMillis(100)).then(Mono.empty())),
                        3,
                        FLUSH,
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
        assertThat(registry.get("shortgate.visits.batch.size").summary().count())
                .isEqualTo(3);
        assertThat(registry.get("shortgate.visits.flush").timer().count()).isEqualTo(3);
        assertThat(registry.get("shortgate.visits.buffered").gauge().value()).isZero();
        assertThat(dropped("buffer_full") + dropped("write_failed") + dropped("shutdown"))
                .isZero();
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
        VisitRecorder recorder = recorder(
                props(100, 2, 3),
                batch -> Mono.defer(() -> attempts.incrementAndGet() < 3
                        ? Mono.error(new IllegalStateException("database down"))
                        : Mono.<Void>empty()));
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
    void batchFailingWhileTheDatabaseIsDownIsKeptAndRetriedUntilWrittenAndOnlyTheOverflowIsDropped() {
        AtomicBoolean databaseUp = new AtomicBoolean(false);
        AtomicInteger attempts = new AtomicInteger();
        VisitRecorder recorder = recorder(
                props(10, 5, 0),
                batch -> Mono.defer(() -> {
                    attempts.incrementAndGet();
                    if (!databaseUp.get()) {
                        return Mono.error(new IllegalStateException("Connection refused"));
                    }
                    written.add(batch);
                    return Mono.empty();
                }));
        recorder.start();

        assertThat(offer(recorder, 10)).isEqualTo(10);
        time.advanceTimeBy(Duration.ofMinutes(10)); // an outage of ten minutes: far more retries than any limit
        int overflow = 7;
        assertThat(offer(recorder, overflow)).isZero();
        databaseUp.set(true);
        time.advanceTimeBy(Duration.ofSeconds(30)); // the capped backoff: the next try comes within the cap

        assertThat(attempts.get()).isGreaterThan(20);
        assertThat(written).flatExtracting(batch -> batch).hasSize(10);
        assertThat(dropped("write_failed")).isZero();
        assertThat(dropped("buffer_full")).isEqualTo(overflow);
        assertThat(recorder.held()).isZero();
        assertThat(registry.get("shortgate.visits.write.retries")
                        .tag("path", "raw")
                        .counter()
                        .count())
                .isEqualTo(attempts.get() - 2);
    }

    @Test
    void writeThatHangsTimesOutAndIsTriedAgain() {
        AtomicInteger attempts = new AtomicInteger();
        VisitRecorder recorder = recorder(
                props(100, 2, 0),
                batch -> Mono.defer(() -> {
                    if (attempts.incrementAndGet() == 1) {
                        return Mono.never(); // a write stuck behind a lock
                    }
                    written.add(batch);
                    return Mono.empty();
                }));
        recorder.start();

        offer(recorder, 2);
        time.advanceTimeBy(WRITE_TIMEOUT.minusMillis(1));
        assertThat(attempts).hasValue(1);
        time.advanceTimeBy(Duration.ofSeconds(1));

        assertThat(attempts).hasValue(2);
        assertThat(written).hasSize(1);
        assertThat(recorder.held()).isZero();
    }

    @Test
    void batchTheDatabaseRejectsAsBadSqlIsDroppedAsWriteFailedAtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        VisitRecorder recorder = recorder(
                props(100, 3, 0),
                batch -> Mono.defer(() -> {
                    attempts.incrementAndGet();
                    return Mono.error(
                            new io.r2dbc.spi.R2dbcBadGrammarException("You have an error in your SQL syntax"));
                }));
        recorder.start();

        offer(recorder, 3);
        time.advanceTimeBy(Duration.ofMinutes(1));

        assertThat(attempts).hasValue(1);
        assertThat(dropped("write_failed")).isEqualTo(3);
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
        time.advanceTimeBy(Duration.ofSeconds(2)); // recording closes once all is written and no visit came for 100 ms

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
        time.advanceTimeBy(Duration.ofSeconds(5));
        assertThat(stopped).isFalse();
        time.advanceTimeBy(Duration.ofSeconds(6));

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

        recorder.record(
                MockServerRequest.builder()
                        .remoteAddress(new InetSocketAddress(InetAddress.getByName("203.0.113.9"), 5555))
                        .header("X-Forwarded-For", "1.2.3.4")
                        .header("User-Agent", "A".repeat(600))
                        .header("Referer", "https://news.example/item")
                        .build(),
                "abc");

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
        VisitProperties off = props(false, 100, 1, 100);
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

    // --- Counts: never dropped --------------------------------------------------------------------------------------

    @Test
    void countsStayExactWhenABurstOverflowsTheRawBuffer() throws Exception {
        int capacity = 50;
        VisitRecorder recorder = recorder(props(capacity, 1000, 0), batch -> Mono.never()); // raw rows stuck
        recorder.start();
        InetAddress ip = InetAddress.getByName("203.0.113.9");

        int perCode = 3_000;
        for (int i = 0; i < perCode; i++) {
            for (String code : List.of("a", "b", "c")) {
                recorder.record(code, ip, i % 2 == 0 ? CHROME : "Googlebot/2.1", "https://news.example/item?" + i);
            }
        }
        time.advanceTimeBy(COUNTS_FLUSH);

        assertThat(dropped("buffer_full")).isEqualTo(3 * perCode - capacity);
        assertThat(visitsWritten("a")).isEqualTo(perCode);
        assertThat(visitsWritten("b")).isEqualTo(perCode);
        assertThat(visitsWritten("c")).isEqualTo(perCode);
        assertThat(flushes).flatExtracting(VisitCountFlusher.Flush::days).allSatisfy(day -> assertThat(day.botVisits())
                .isEqualTo(day.visits() / 2));
        assertThat(flushes)
                .flatExtracting(VisitCountFlusher.Flush::dims)
                .filteredOn(dim -> dim.dimension() == Dimension.REFERRER_HOST)
                .extracting(VisitCountFlusher.DimCount::label)
                .containsOnly("news.example");
        assertThat(registry.get("shortgate.visits.counted").counter().count()).isEqualTo(3 * perCode);
        assertThat(registry.get("shortgate.visits.counts.written").counter().count())
                .isEqualTo(3 * perCode);
        assertThat(registry.get("shortgate.visits.counts.pending").gauge().value())
                .isZero();
    }

    @Test
    void countFlushThatFailsIsRetriedWithTheSameIdWhileNewVisitsWaitForTheNextFlush() {
        AtomicBoolean databaseUp = new AtomicBoolean(false);
        List<Long> attemptedIds = new CopyOnWriteArrayList<>();
        countWriter = new VisitCountFlusher.CountWriter() {
            @Override
            public Mono<Void> write(VisitCountFlusher.Flush flush) {
                return Mono.defer(() -> {
                    attemptedIds.add(flush.seq());
                    if (!databaseUp.get()) {
                        return Mono.error(new IllegalStateException("Connection refused"));
                    }
                    flushes.add(flush);
                    return Mono.empty();
                });
            }

            @Override
            public Mono<Void> writeSketches(List<UniqueVisitors.Row> rows) {
                return Mono.empty();
            }
        };
        VisitRecorder recorder = recorder(props(100, 1000, 0), batch -> Mono.empty());
        recorder.start();

        record(recorder, "a", 4);
        time.advanceTimeBy(COUNTS_FLUSH);
        record(recorder, "a", 3);
        time.advanceTimeBy(Duration.ofMinutes(5));
        assertThat(attemptedIds).hasSizeGreaterThan(5).containsOnly(1L);
        assertThat(tally.unwritten("a")).isEqualTo(7);

        databaseUp.set(true);
        time.advanceTimeBy(Duration.ofSeconds(30));

        assertThat(flushes).extracting(VisitCountFlusher.Flush::seq).containsExactly(1L, 2L);
        assertThat(flushes).extracting(VisitCountFlusher.Flush::visits).containsExactly(4L, 3L);
        assertThat(tally.unwritten("a")).isZero();
    }

    @Test
    void stopKeepsCountingUntilVisitsStopComingThenWritesTheLastCountsAndSketches() {
        VisitRecorder recorder = recorder(props(100, 1000, 0), batch -> Mono.empty());
        recorder.start();
        record(recorder, "a", 5);
        AtomicBoolean stopped = new AtomicBoolean();

        recorder.stop(() -> stopped.set(true));
        record(recorder, "a", 1); // the web server still answered one on a connection it kept: counted
        time.advanceTimeBy(Duration.ofMillis(150));
        record(recorder, "a", 1); // and another
        assertThat(stopped).isFalse();
        time.advanceTimeBy(Duration.ofSeconds(2)); // all written, no visit for 100 ms: recording closes
        record(recorder, "a", 1); // after recording closed: not counted, counted as a shutdown drop

        assertThat(stopped).isTrue();
        assertThat(visitsWritten("a")).isEqualTo(7);
        assertThat(sketchRows).extracting(UniqueVisitors.Row::code).containsExactly("a");
        assertThat(dropped("shutdown")).isEqualTo(1);
    }

    @Test
    void labelsBeyondTheBoundPerLinkDayAndDimensionCountAsOther() {
        VisitRecorder recorder = recorder(props(true, 100, 1000, 2), batch -> Mono.empty());
        recorder.start();

        for (String host : List.of("a.example", "b.example", "a.example")) {
            recorder.record("x", null, CHROME, "https://" + host + "/");
        }
        time.advanceTimeBy(COUNTS_FLUSH);
        for (String host : List.of("c.example", "a.example", "d.example")) {
            recorder.record("x", null, CHROME, "https://" + host + "/");
        }
        time.advanceTimeBy(COUNTS_FLUSH);

        assertThat(flushes)
                .flatExtracting(VisitCountFlusher.Flush::dims)
                .filteredOn(dim -> dim.dimension() == Dimension.REFERRER_HOST)
                .extracting(VisitCountFlusher.DimCount::label, VisitCountFlusher.DimCount::visits)
                .containsExactlyInAnyOrder(
                        tuple("a.example", 2L), tuple("b.example", 1L), tuple("a.example", 1L), tuple("other", 2L));
    }

    @Test
    void recordFromPlainFactsCountsAndBuffersTheVisit() throws Exception {
        VisitRecorder recorder = recorder(props(100, 1, 0), batch -> {
            written.add(batch);
            return Mono.empty();
        });
        recorder.start();

        recorder.record("abc", InetAddress.getByName("2001:db8::1"), "A".repeat(600), null);
        time.advanceTimeBy(COUNTS_FLUSH);

        assertThat(written).hasSize(1);
        assertThat(written.get(0).get(0).userAgent()).hasSize(512);
        assertThat(visitsWritten("abc")).isEqualTo(1);
    }

    // --- Orphan visits: the same raw buffer, counts per day and type ------------------------------------------------

    @Test
    void anUnknownCodeFloodSharesTheBoundedRawBufferAndIsCountedExactlyPerDayAndTypeOnly() {
        int capacity = 50;
        VisitRecorder recorder = recorder(props(capacity, 1000, 0), batch -> Mono.never()); // raw rows stuck
        recorder.start();

        int flood = 20_000;
        for (int i = 0; i < flood; i++) {
            recorder.recordOrphan(
                    OrphanVisitType.INVALID_SHORT_URL,
                    0,
                    "random" + i,
                    null,
                    null,
                    i % 4 == 0 ? "Googlebot/2.1" : CHROME + " build/" + i,
                    null);
        }
        recorder.recordOrphan(OrphanVisitType.BASE_URL, 0, "", null, null, CHROME, "https://news.example/");
        recorder.record("a", null, CHROME, "https://news.example/");

        assertThat(recorder.held()).isEqualTo(capacity);
        assertThat(dropped("buffer_full")).isEqualTo(flood + 2 - capacity);
        // One tally entry per distinct agent and type up to max-distinct-per-code (1000), never one per code asked for.
        assertThat(tally.size()).isLessThanOrEqualTo(1000 + 2 + 1 + 1);
        time.advanceTimeBy(COUNTS_FLUSH);

        assertThat(flushes)
                .flatExtracting(VisitCountFlusher.Flush::orphans)
                .extracting(
                        VisitCountFlusher.OrphanCount::day,
                        VisitCountFlusher.OrphanCount::type,
                        VisitCountFlusher.OrphanCount::visits,
                        VisitCountFlusher.OrphanCount::botVisits)
                .containsExactlyInAnyOrder(
                        tuple(
                                java.time.LocalDate.of(2025, 3, 1),
                                OrphanVisitType.INVALID_SHORT_URL,
                                (long) flood,
                                (long) flood / 4),
                        tuple(java.time.LocalDate.of(2025, 3, 1), OrphanVisitType.BASE_URL, 1L, 0L));
        assertThat(flushes)
                .flatExtracting(VisitCountFlusher.Flush::days)
                .extracting(VisitCountFlusher.DayCount::code)
                .containsOnly("a");
        assertThat(flushes)
                .flatExtracting(VisitCountFlusher.Flush::dims)
                .extracting(VisitCountFlusher.DimCount::code)
                .containsOnly("a");
        assertThat(registry.get("shortgate.visits.orphans.counted").counter().count())
                .isEqualTo(flood + 1);
        assertThat(registry.get("shortgate.visits.counted").counter().count()).isEqualTo(1);
        assertThat(registry.get("shortgate.visits.counts.written").counter().count())
                .isEqualTo(flood + 2);
        assertThat(registry.get("shortgate.visits.counts.pending").gauge().value())
                .isZero();
    }

    @Test
    void orphanVisitRowsGoThroughTheSameBatchesWithTheirTypePathAndQuery() throws Exception {
        VisitRecorder recorder = recorder(props(100, 3, 0), batch -> {
            written.add(batch);
            return Mono.empty();
        });
        recorder.start();

        recorder.record("abc", null, CHROME, null);
        recorder.recordOrphan(
                OrphanVisitType.REGULAR_404,
                0,
                "wp-admin/setup.php",
                "step=1",
                InetAddress.getByName("203.0.113.9"),
                "A".repeat(600),
                "https://news.example/");
        recorder.recordOrphan(OrphanVisitType.BASE_URL, 0, "", null, null, null, null);
        time.advanceTimeBy(FLUSH);

        assertThat(written).hasSize(1);
        assertThat(written.get(0))
                .extracting(RawVisit::code, RawVisit::orphan, RawVisit::query)
                .containsExactly(
                        tuple("abc", null, null),
                        tuple("wp-admin/setup.php", OrphanVisitType.REGULAR_404, "step=1"),
                        tuple("", OrphanVisitType.BASE_URL, null));
        assertThat(written.get(0).get(1).userAgent()).hasSize(512);
        assertThat(VisitBatchWriter.visitedPath("wp-admin/setup.php", "step=1"))
                .isEqualTo("/wp-admin/setup.php?step=1");
        assertThat(VisitBatchWriter.visitedPath("", null)).isEqualTo("/");
        assertThat(VisitBatchWriter.visitedPath("x".repeat(5000), "q"))
                .hasSize(VisitBatchWriter.VISITED_PATH_MAX_LENGTH);
    }

    @Test
    void orphanVisitsOfAnotherDomainAreCountedPerDomainAndKeepTheirDomainOnTheRawRow() {
        VisitRecorder recorder = recorder(props(100, 10, 0), batch -> {
            written.add(batch);
            return Mono.empty();
        });
        recorder.start();

        recorder.recordOrphan(OrphanVisitType.INVALID_SHORT_URL, 0, "nope", null, null, CHROME, null);
        recorder.recordOrphan(OrphanVisitType.INVALID_SHORT_URL, 7, "nope", null, null, CHROME, null);
        recorder.recordOrphan(OrphanVisitType.INVALID_SHORT_URL, 7, "gone", null, null, "Googlebot/2.1", null);
        recorder.recordOrphan(OrphanVisitType.BASE_URL, 12, "", null, null, CHROME, null);
        recorder.recordOrphan(OrphanVisitType.BASE_URL, -1, "", null, null, CHROME, null); // a refused host
        time.advanceTimeBy(COUNTS_FLUSH);

        assertThat(flushes)
                .flatExtracting(VisitCountFlusher.Flush::orphans)
                .extracting(
                        VisitCountFlusher.OrphanCount::domainId,
                        VisitCountFlusher.OrphanCount::type,
                        VisitCountFlusher.OrphanCount::visits,
                        VisitCountFlusher.OrphanCount::botVisits)
                .containsExactly( // in orphan_visit_domain_stats' key order
                        tuple(0, OrphanVisitType.INVALID_SHORT_URL, 1L, 0L),
                        tuple(0, OrphanVisitType.BASE_URL, 1L, 0L),
                        tuple(7, OrphanVisitType.INVALID_SHORT_URL, 2L, 1L),
                        tuple(12, OrphanVisitType.BASE_URL, 1L, 0L));
        assertThat(written)
                .flatExtracting(batch -> batch)
                .extracting(RawVisit::domainId)
                .containsExactly(0, 7, 7, 12, 0);
    }

    @Test
    void orphanTallyKeysNeverNameALink() {
        for (OrphanVisitType type : OrphanVisitType.values()) {
            assertThat(dev.shortgate.link.Link.CODE.matcher(type.tallyKey).matches())
                    .isFalse();
            assertThat(OrphanVisitType.ofTallyKey(type.tallyKey)).isEqualTo(type);
            assertThat(OrphanVisitType.ofTallyKey(type.tallyKey(42))).isEqualTo(type);
            assertThat(OrphanVisitType.domainOfTallyKey(type.tallyKey(42))).isEqualTo(42);
            assertThat(OrphanVisitType.domainOfTallyKey(type.tallyKey(0))).isZero();
            assertThat(dev.shortgate.link.Link.CODE.matcher(type.tallyKey(42)).matches())
                    .isFalse();
            assertThat(OrphanVisitType.parse(type.value())).isEqualTo(type);
        }
        assertThat(OrphanVisitType.ofTallyKey("invalid_short_url")).isNull();
    }

    @Test
    void aFlushOfManyLinksIsWrittenInBoundedTransactionsThatKeepEachLinkWhole() {
        List<VisitTally.Count> counts = new java.util.ArrayList<>();
        for (int code = 0; code < 3_000; code++) {
            for (int agent = 0; agent < 3; agent++) {
                counts.add(new VisitTally.Count(
                        new VisitTally.Facts("c" + code, 1, "a" + agent, null, null, VisitTally.Facts.DISTINCT), 1));
            }
        }

        List<List<VisitTally.Count>> chunks = VisitCountFlusher.chunks(counts);

        assertThat(chunks).hasSizeGreaterThan(1).allSatisfy(chunk -> assertThat(chunk)
                .hasSizeLessThanOrEqualTo(VisitCountFlusher.ENTRIES_PER_TRANSACTION));
        assertThat(chunks).flatExtracting(chunk -> chunk).hasSize(counts.size());
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk).allSatisfy(count -> assertThat(chunks.stream()
                        .filter(other -> other != chunk)
                        .flatMap(List::stream)
                        .noneMatch(o -> o.facts().code().equals(count.facts().code())))
                .isTrue()));
    }

    // --- Helpers -------------------------------------------------------------------------------------------------

    static final String CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Safari/537.36";
    private static final Duration COUNTS_FLUSH = Duration.ofSeconds(1);
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);

    private final List<VisitCountFlusher.Flush> flushes = new CopyOnWriteArrayList<>();
    private final List<UniqueVisitors.Row> sketchRows = new CopyOnWriteArrayList<>();
    private VisitTally tally;
    private VisitCountFlusher.CountWriter countWriter = new VisitCountFlusher.CountWriter() {
        @Override
        public Mono<Void> write(VisitCountFlusher.Flush flush) {
            flushes.add(flush);
            return Mono.empty();
        }

        @Override
        public Mono<Void> writeSketches(List<UniqueVisitors.Row> rows) {
            sketchRows.addAll(rows);
            return Mono.empty();
        }
    };

    private VisitRecorder recorder(VisitProperties properties, VisitRecorder.BatchWriter writer) {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        tally = new VisitTally(properties.maxDistinctPerCode(), UserAgentParser::looksLikeBot);
        UniqueVisitors uniques = new UniqueVisitors();
        VisitEnricher enricher = new VisitEnricher(() -> null, GeoLocator.open(null), false);
        VisitCountFlusher counts = new VisitCountFlusher(
                tally, uniques, enricher, countWriter, properties, clock, time, Schedulers.immediate(), registry);
        return new VisitRecorder(
                properties,
                new ClientIpResolver(List.of()),
                new VisitId(),
                writer,
                tally,
                uniques,
                counts,
                clock,
                time,
                registry);
    }

    private static VisitProperties props(int capacity, int batchSize, int ignored) {
        return props(true, capacity, batchSize, 100);
    }

    static VisitProperties props(boolean enabled, int capacity, int batchSize, int maxLabels) {
        return new VisitProperties(
                enabled,
                capacity,
                batchSize,
                FLUSH,
                2,
                Duration.ofMillis(100),
                Duration.ofSeconds(10),
                WRITE_TIMEOUT,
                Duration.ofSeconds(10),
                COUNTS_FLUSH,
                Duration.ofSeconds(30),
                2,
                maxLabels,
                1000,
                Duration.ofDays(90),
                Duration.ofMinutes(10),
                5000,
                512,
                1024,
                false,
                List.of(),
                null,
                null);
    }

    private long visitsWritten(String code) {
        return flushes.stream()
                .flatMap(flush -> flush.days().stream())
                .filter(day -> day.code().equals(code))
                .mapToLong(VisitCountFlusher.DayCount::visits)
                .sum();
    }

    private static void record(VisitRecorder recorder, String code, int count) {
        for (int i = 0; i < count; i++) {
            recorder.record(code, null, CHROME, null);
        }
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
        return registry.get("shortgate.visits.dropped")
                .tag("reason", reason)
                .counter()
                .count();
    }
}
