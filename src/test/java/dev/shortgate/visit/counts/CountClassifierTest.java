package dev.shortgate.visit.counts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.enrich.GeoLocator;
import dev.shortgate.visit.enrich.UserAgentParser;
import dev.shortgate.visit.enrich.VisitEnricher;
import org.junit.jupiter.api.Test;

class CountClassifierTest {

    private static final long DAY = LocalDate.of(2026, 11, 27).toEpochDay();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T12:00:00Z"), ZoneOffset.UTC);

    @Test
    void aLinkKeepsMaxLabelsReferrersPerDayAcrossFlushesAndCountsTheRestAsOther() {
        assertKeepsFirst(12, 15); // past the array of FEW labels, into a set
        assertKeepsFirst(3, 6); // the cap within the array
        assertKeepsFirst(CountClassifier.FEW, CountClassifier.FEW + 1); // the cap at the array's end
    }

    private static void assertKeepsFirst(int maxLabels, int hosts) {
        CountClassifier classifier =
                new CountClassifier(new VisitEnricher(() -> null, GeoLocator.open(null), false), maxLabels, CLOCK);
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < hosts; i++) { // one new referrer per flush, so the order they are admitted in is known
            labels.addAll(referrers(classifier.flush(new byte[8], i, List.of(visit("x", "host" + i + ".example", 1)))));
        }
        // the kept ones are still themselves once the cap is reached; a new one is "other"
        List<String> again = referrers(classifier.flush(
                new byte[8], hosts, List.of(visit("x", "host0.example", 2), visit("x", "new.example", 1))));

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < hosts; i++) {
            expected.add(i < maxLabels ? "host" + i + ".example" : Dimension.OTHER);
        }
        assertThat(labels).containsExactlyElementsOf(expected);
        assertThat(again).containsExactlyInAnyOrder("host0.example", Dimension.OTHER);
    }

    private static final String CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
            + "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
    private static final String SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) "
            + "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
    private static final String FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0";

    @Test
    void aVisitsBrowserOsAndDeviceClassAreCountedInOneAgentRow() {
        CountClassifier classifier = new CountClassifier(parsing(), 100, CLOCK);

        VisitCountFlusher.Flush flush = classifier.flush(
                new byte[8],
                0,
                List.of(agentVisit("x", CHROME, 3), agentVisit("x", SAFARI, 2), agentVisit("y", CHROME, 1)));

        assertThat(flush.dims())
                .extracting(
                        VisitCountFlusher.DimCount::code,
                        VisitCountFlusher.DimCount::dimension,
                        VisitCountFlusher.DimCount::label,
                        VisitCountFlusher.DimCount::visits)
                .containsExactly( // in the table's key order
                        tuple("x", Dimension.AGENT, Dimension.agentLabel("Chrome", "Windows NT", "Desktop"), 3L),
                        tuple("x", Dimension.AGENT, Dimension.agentLabel("Safari", "iOS", "Phone"), 2L),
                        tuple("y", Dimension.AGENT, Dimension.agentLabel("Chrome", "Windows NT", "Desktop"), 1L));
    }

    @Test
    void pastMaxLabelsCombinationsAVisitsBrowserOsAndDeviceClassGetRowsOfTheirOwn() {
        CountClassifier classifier = new CountClassifier(parsing(), 2, CLOCK);

        VisitCountFlusher.Flush first = classifier.flush(
                new byte[8],
                0,
                List.of(agentVisit("x", CHROME, 3), agentVisit("x", SAFARI, 2), agentVisit("x", FIREFOX, 1)));
        VisitCountFlusher.Flush second =
                classifier.flush(new byte[8], 1, List.of(agentVisit("x", SAFARI, 4), agentVisit("x", FIREFOX, 5)));

        // the busiest two combinations of the day get agent rows; the third is counted per dimension, as before
        assertThat(first.dims())
                .extracting(CountClassifierTest::row)
                .containsExactly(
                        tuple(Dimension.BROWSER, "Firefox", 1L),
                        tuple(Dimension.OS, "Linux", 1L),
                        tuple(Dimension.DEVICE_CLASS, "Desktop", 1L),
                        tuple(Dimension.AGENT, Dimension.agentLabel("Chrome", "Windows NT", "Desktop"), 3L),
                        tuple(Dimension.AGENT, Dimension.agentLabel("Safari", "iOS", "Phone"), 2L));
        // a later flush of the same day keeps to the combinations admitted first
        assertThat(second.dims())
                .extracting(CountClassifierTest::row)
                .containsExactly(
                        tuple(Dimension.BROWSER, "Firefox", 5L),
                        tuple(Dimension.OS, "Linux", 5L),
                        tuple(Dimension.DEVICE_CLASS, "Desktop", 5L),
                        tuple(Dimension.AGENT, Dimension.agentLabel("Safari", "iOS", "Phone"), 4L));
    }

    @Test
    void visitsPastTheDistinctEntryBoundCountAsOtherInOneAgentRow() {
        CountClassifier classifier = new CountClassifier(parsing(), 100, CLOCK);

        VisitCountFlusher.Flush flush = classifier.flush(
                new byte[8],
                0,
                List.of(new VisitTally.Count(
                        new VisitTally.Facts("x", DAY, null, null, null, VisitTally.Facts.OTHER_HUMAN), 7)));

        assertThat(flush.dims())
                .extracting(CountClassifierTest::row)
                .containsExactly(
                        tuple(Dimension.COUNTRY, Dimension.OTHER, 7L),
                        tuple(Dimension.REFERRER_HOST, Dimension.OTHER, 7L),
                        tuple(
                                Dimension.AGENT,
                                Dimension.agentLabel(Dimension.OTHER, Dimension.OTHER, Dimension.OTHER),
                                7L));
    }

    /** A dimension row as (dimension, label, visits). */
    private static org.assertj.core.groups.Tuple row(VisitCountFlusher.DimCount d) {
        return tuple(d.dimension(), d.label(), d.visits());
    }

    private static VisitEnricher parsing() {
        return new VisitEnricher(UserAgentParser::sharedOrNull, GeoLocator.open(null), false);
    }

    private static VisitTally.Count agentVisit(String code, String agent, long visits) {
        return new VisitTally.Count(
                new VisitTally.Facts(code, DAY, agent, null, null, VisitTally.Facts.DISTINCT), visits);
    }

    private static VisitTally.Count visit(String code, String refererHost, long visits) {
        return new VisitTally.Count(
                new VisitTally.Facts(code, DAY, null, null, refererHost, VisitTally.Facts.DISTINCT), visits);
    }

    private static List<String> referrers(VisitCountFlusher.Flush flush) {
        return flush.dims().stream()
                .filter(d -> d.dimension() == Dimension.REFERRER_HOST)
                .map(VisitCountFlusher.DimCount::label)
                .toList();
    }
}
