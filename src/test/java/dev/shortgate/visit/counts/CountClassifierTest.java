package dev.shortgate.visit.counts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.enrich.GeoLocator;
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
