package dev.shortgate.visit.counts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.visit.VisitProperties;
import dev.shortgate.visit.WriteTurns;
import dev.shortgate.visit.enrich.GeoLocator;
import dev.shortgate.visit.enrich.UserAgentParser;
import dev.shortgate.visit.enrich.VisitEnricher;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

class VisitCountFlusherTest {

    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Duration WRITE = Duration.ofSeconds(3); // each count transaction takes this long

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final VisitTally tally = new VisitTally(1000, UserAgentParser::looksLikeBot);
    private final UniqueVisitors uniques = new UniqueVisitors();
    private final List<VisitCountFlusher.Flush> written = new CopyOnWriteArrayList<>();
    private final List<List<UniqueVisitors.Row>> sketchesWritten = new CopyOnWriteArrayList<>();
    private final AtomicInteger writing = new AtomicInteger();
    private final AtomicInteger mostWritingAtOnce = new AtomicInteger();

    /** A database where each count transaction takes {@link #WRITE}. */
    private final VisitCountFlusher.CountWriter slowDatabase = new VisitCountFlusher.CountWriter() {
        @Override
        public Mono<Void> write(VisitCountFlusher.Flush flush) {
            return Mono.defer(() -> {
                mostWritingAtOnce.accumulateAndGet(writing.incrementAndGet(), Math::max);
                return Mono.delay(WRITE, time)
                        .doOnNext(tick -> written.add(flush))
                        .doOnTerminate(writing::decrementAndGet)
                        .then();
            });
        }

        @Override
        public Mono<Void> writeSketches(List<UniqueVisitors.Row> rows) {
            return Mono.fromRunnable(() -> sketchesWritten.add(rows));
        }
    };

    @Test
    void chunksOfAFlushAreWrittenOneAtATimeUntilItRunsPastItsIntervalEachWithItsOwnFlushIdAndNoLinkInTwo() {
        VisitCountFlusher flusher = flusher(2);
        int links = VisitCountFlusher.ENTRIES_PER_TRANSACTION * 2 + 1; // three chunks, each taking 3 s
        visitEach(links, 2);

        StepVerifier.withVirtualTime(() -> flusher.cycle(false), () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .thenAwait(INTERVAL)
                .then(() -> assertThat(mostWritingAtOnce).hasValue(1)) // within its interval: one at a time
                .thenAwait(WRITE.plus(WriteTurns.POLL.multipliedBy(2)))
                .then(() -> assertThat(written).hasSize(2)) // past it, the second joined the first
                .thenAwait(WRITE)
                .verifyComplete();

        assertThat(mostWritingAtOnce).hasValue(2);
        assertThat(written).extracting(VisitCountFlusher.Flush::seq).containsExactlyInAnyOrder(1L, 2L, 3L);
        assertThat(written)
                .flatExtracting(VisitCountFlusher.Flush::days)
                .extracting(VisitCountFlusher.DayCount::code)
                .doesNotHaveDuplicates()
                .hasSize(links);
        assertThat(written.stream().mapToLong(VisitCountFlusher.Flush::visits).sum())
                .isEqualTo(links * 2L);
        assertThat(tally.pending()).isZero();
        assertThat(registry.get("shortgate.visits.counts.written").counter().count())
                .isEqualTo(links * 2.0);
    }

    @Test
    void aFlushAfterOneThatRanPastItsIntervalWritesItsChunksTogetherFromItsStart() {
        VisitCountFlusher flusher = flusher(2);
        visitEach(VisitCountFlusher.ENTRIES_PER_TRANSACTION * 2 + 1, 1); // three chunks of 3 s: past the interval
        List<String> done = new CopyOnWriteArrayList<>();
        flusher.cycle(false).subscribe(null, null, () -> done.add("first"));
        time.advanceTimeBy(WRITE.multipliedBy(3));
        assertThat(done).containsExactly("first");
        written.clear();
        mostWritingAtOnce.set(0);

        visitEach(VisitCountFlusher.ENTRIES_PER_TRANSACTION + 1, 1); // two chunks
        flusher.cycle(false).subscribe(null, null, () -> done.add("second"));
        time.advanceTimeBy(WRITE);

        assertThat(written).hasSize(2); // together from the start, not one after the other
        assertThat(mostWritingAtOnce).hasValue(2);
        assertThat(done).containsExactly("first", "second");
    }

    @Test
    void oneAtATimeWhenTheConcurrencyIsOne() {
        VisitCountFlusher flusher = flusher(1);
        visitEach(VisitCountFlusher.ENTRIES_PER_TRANSACTION + 1, 1);

        StepVerifier.withVirtualTime(() -> flusher.cycle(false), () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .thenAwait(WRITE.multipliedBy(2))
                .verifyComplete();

        assertThat(mostWritingAtOnce).hasValue(1);
        assertThat(written).extracting(VisitCountFlusher.Flush::seq).containsExactly(1L, 2L);
    }

    @Test
    void countsAreBehindOnlyWhileAFlushRunsLongerThanTheFlushInterval() {
        VisitCountFlusher flusher = flusher(2);
        flusher.start();
        visitEach(10, 1);
        assertThat(flusher.behind()).isFalse();

        time.advanceTimeBy(INTERVAL); // the flush starts; its transaction takes 3 s
        assertThat(flusher.behind()).isFalse();
        time.advanceTimeBy(INTERVAL.plusMillis(1));
        assertThat(flusher.behind()).isTrue();
        time.advanceTimeBy(WRITE);
        assertThat(written).hasSize(1);
        assertThat(flusher.behind()).isFalse();

        time.advanceTimeBy(INTERVAL.multipliedBy(5)); // nothing to write: never behind
        assertThat(flusher.behind()).isFalse();
    }

    @Test
    void countsAreBehindWhileShutdownWritesTheLastOfThem() {
        VisitCountFlusher flusher = flusher(2);
        flusher.start();
        visitEach(10, 1);

        StepVerifier.withVirtualTime(() -> flusher.stop(Duration.ofSeconds(10)), () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .then(() -> assertThat(flusher.behind()).isTrue())
                .thenAwait(WRITE)
                .verifyComplete();

        assertThat(flusher.behind()).isFalse();
        assertThat(tally.pending()).isZero();
    }

    @Test
    void changedSketchesAreWrittenAFewTransactionsAfterEachCountFlushAndTheLastFlushWritesAllThatIsLeft() {
        VisitCountFlusher flusher = flusher(2);
        flusher.start();
        long day = LocalDate.ofInstant(NOW, ZoneOffset.UTC).toEpochDay();
        int perCycle = VisitCountFlusher.SKETCHES_PER_TRANSACTION * VisitCountFlusher.SKETCH_CHUNKS_PER_CYCLE;
        int links = perCycle + VisitCountFlusher.SKETCHES_PER_TRANSACTION + 1;
        for (int link = 0; link < links; link++) {
            uniques.add("c" + link, day, null, "agent", false);
        }

        time.advanceTimeBy(Duration.ofSeconds(29)); // flushes every second; sketches not due yet
        assertThat(sketchesWritten).isEmpty();
        time.advanceTimeBy(Duration.ofSeconds(1)); // due: taken, and the first slice written
        assertThat(sketchesWritten)
                .hasSize(VisitCountFlusher.SKETCH_CHUNKS_PER_CYCLE)
                .allSatisfy(rows -> assertThat(rows).hasSize(VisitCountFlusher.SKETCHES_PER_TRANSACTION));
        time.advanceTimeBy(Duration.ofSeconds(1)); // the next count flush, then the rest
        assertThat(sketchesWritten).flatExtracting(rows -> rows).hasSize(links);

        uniques.add("late", day, null, "agent", false);
        uniques.add("c0", day, null, "another agent", false);
        StepVerifier.withVirtualTime(() -> flusher.stop(Duration.ofSeconds(10)), () -> time, Long.MAX_VALUE)
                .expectSubscription()
                .verifyComplete();

        assertThat(sketchesWritten)
                .flatExtracting(rows -> rows)
                .extracting(UniqueVisitors.Row::code)
                .hasSize(links + 2)
                .containsOnlyOnce("late");
    }

    private void visitEach(int links, int visits) {
        long day = LocalDate.ofInstant(NOW, ZoneOffset.UTC).toEpochDay();
        for (int link = 0; link < links; link++) {
            for (int visit = 0; visit < visits; visit++) {
                tally.add("c" + link, day, "agent", null, null);
            }
        }
    }

    private VisitCountFlusher flusher(int concurrency) {
        VisitProperties properties = new VisitProperties(
                true,
                1000,
                100,
                Duration.ofMillis(250),
                2,
                Duration.ofMillis(100),
                Duration.ofSeconds(10),
                Duration.ofSeconds(10),
                Duration.ofSeconds(10),
                INTERVAL,
                Duration.ofSeconds(30),
                concurrency,
                100,
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
        return new VisitCountFlusher(
                tally,
                uniques,
                new VisitEnricher(() -> null, GeoLocator.open(null), false),
                slowDatabase,
                properties,
                Clock.fixed(NOW, ZoneOffset.UTC),
                time,
                Schedulers.immediate(),
                registry);
    }
}
