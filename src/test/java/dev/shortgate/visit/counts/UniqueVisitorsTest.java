package dev.shortgate.visit.counts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import org.junit.jupiter.api.Test;

class UniqueVisitorsTest {

    private static final long DAY = 20_000;

    @Test
    void estimateOfAHundredThousandKnownVisitorsIsWithinThreeStandardErrors() throws Exception {
        UniqueVisitors uniques = new UniqueVisitors();
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            uniques.add("x", DAY, ip(i), "agent", false);
            uniques.add("x", DAY, ip(i), "agent", false); // a second visit of the same visitor
        }

        List<UniqueVisitors.Row> rows = uniques.changed(DAY);

        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).visitors()).hasSizeLessThan(3_000); // the same size at 10 visitors or 10 million
        // relative standard error 1.04 / sqrt(4096) = 1.6%: three of them is 4.9%
        assertThat((double) UniqueVisitors.estimate(List.of(rows.get(0).visitors())))
                .isCloseTo(n, within(n * 0.049));
    }

    @Test
    void sketchesOfTwoPodsMergeIntoTheirUnionAndLeaveBotsOutOfTheHumanSketch() throws Exception {
        UniqueVisitors podA = new UniqueVisitors();
        UniqueVisitors podB = new UniqueVisitors();
        for (int i = 0; i < 60_000; i++) {
            podA.add("x", DAY, ip(i), "agent", false);
        }
        for (int i = 40_000; i < 100_000; i++) {
            podB.add("x", DAY, ip(i), "agent", i >= 90_000); // 10,000 of them bots
        }
        UniqueVisitors.Row a = podA.changed(DAY).get(0);
        UniqueVisitors.Row b = podB.changed(DAY).get(0);

        assertThat((double) UniqueVisitors.estimate(List.of(a.visitors(), b.visitors())))
                .isCloseTo(100_000, within(4_900.0));
        assertThat((double) UniqueVisitors.estimate(List.of(a.humanVisitors(), b.humanVisitors())))
                .isCloseTo(90_000, within(4_410.0));
        assertThat(a.writer()).isNotEqualTo(b.writer());
    }

    @Test
    void aSketchTakenForWritingIsSerializedWhenItsRowIsTakenAndNotAtAllOnceItsVisitsAreDeleted() throws Exception {
        UniqueVisitors uniques = new UniqueVisitors();
        uniques.add("x", DAY, ip(1), "agent", false);
        uniques.add("y", DAY, ip(1), "agent", false);
        List<UniqueVisitors.DaySketch> taken = uniques.dirty(DAY);
        uniques.add("x", DAY, ip(2), "agent", false); // after it was taken, before its row is
        uniques.forget("y", Long.MAX_VALUE);

        assertThat(taken).hasSize(2);
        UniqueVisitors.DaySketch x =
                taken.stream().filter(d -> d.code.equals("x")).findFirst().orElseThrow();
        UniqueVisitors.DaySketch y =
                taken.stream().filter(d -> d.code.equals("y")).findFirst().orElseThrow();
        assertThat(UniqueVisitors.estimate(List.of(UniqueVisitors.row(x).visitors())))
                .isEqualTo(2);
        assertThat(UniqueVisitors.row(y)).isNull();
        assertThat(uniques.dirty(DAY)).containsExactly(x); // changed again since it was taken
    }

    @Test
    void smallCountsAreExactAndUnchangedSketchesAreNotWrittenAgain() throws Exception {
        UniqueVisitors uniques = new UniqueVisitors();
        for (int i = 0; i < 10; i++) {
            uniques.add("x", DAY, ip(i), "agent", false);
        }

        List<UniqueVisitors.Row> rows = uniques.changed(DAY);

        assertThat(UniqueVisitors.estimate(List.of(rows.get(0).visitors()))).isEqualTo(10);
        assertThat(uniques.changed(DAY)).isEmpty();
        assertThat(uniques.changed(DAY + 1)).isEmpty(); // past days are dropped from memory once written
        assertThat(uniques.size()).isZero();
        assertThat(UniqueVisitors.estimate(List.of())).isZero();
    }

    @Test
    void forgettingALinkDropsOnlyItsSketchesStartedBeforeTheDeletion() throws Exception {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_000);
        java.time.Clock clock = new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public java.time.Instant instant() {
                return java.time.Instant.ofEpochMilli(now.get());
            }
        };
        UniqueVisitors uniques = new UniqueVisitors(clock);
        uniques.add("x", DAY, ip(1), "agent", false);
        uniques.add("y", DAY, ip(1), "agent", false);
        byte[] before = uniques.changed(DAY).stream()
                .filter(r -> r.code().equals("x"))
                .findFirst()
                .orElseThrow()
                .writer();

        List<UniqueVisitors.Row> forgotten = uniques.forget("x", 1_000);
        now.set(2_000);
        uniques.add("x", DAY, ip(2), "agent", false);

        assertThat(forgotten).singleElement().satisfies(row -> {
            assertThat(row.writer()).isEqualTo(before);
            assertThat(row.visitors()).isNull();
        });
        assertThat(uniques.forget("x", 1_000)).isEmpty(); // the new sketch started after the deletion
        List<UniqueVisitors.Row> rows = uniques.changed(DAY);
        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.code()).isEqualTo("x");
            assertThat(row.writer()).isNotEqualTo(before);
            assertThat(UniqueVisitors.estimate(List.of(row.visitors()))).isEqualTo(1);
        });
    }

    private static InetAddress ip(int i) throws UnknownHostException {
        return InetAddress.getByAddress(new byte[] {10, (byte) (i >>> 16), (byte) (i >>> 8), (byte) i});
    }
}
