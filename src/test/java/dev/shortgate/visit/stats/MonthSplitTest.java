package dev.shortgate.visit.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.util.List;

import org.junit.jupiter.api.Test;

class MonthSplitTest {

    @Test
    void aRangeInsideOneMonthIsReadPerDay() {
        MonthSplit split = MonthSplit.of(date("2026-03-02"), date("2026-03-30"));

        assertThat(split.days()).containsExactly(span("2026-03-02", "2026-03-30"));
        assertThat(split.months()).isEmpty();
    }

    @Test
    void thirtyDaysAcrossAMonthBoundaryAreReadPerDay() {
        MonthSplit split = MonthSplit.of(date("2026-10-25"), date("2026-11-23"));

        assertThat(split.days()).containsExactly(span("2026-10-25", "2026-11-23"));
        assertThat(split.wholeMonths()).isEmpty();
    }

    @Test
    void aYearIsWholeMonthsBetweenTheDaysOfItsFirstAndLastMonth() {
        MonthSplit split = MonthSplit.of(date("2025-11-24"), date("2026-11-23"));

        assertThat(split.days()).containsExactly(span("2025-11-24", "2025-11-30"), span("2026-11-01", "2026-11-23"));
        assertThat(split.months()).contains(span("2025-12-01", "2026-10-01"));
        assertThat(split.wholeMonths())
                .hasSize(11)
                .startsWith(date("2025-12-01"))
                .endsWith(date("2026-10-01"));
    }

    @Test
    void rangesOnMonthBoundariesAreWholeMonthsOnly() {
        MonthSplit split = MonthSplit.of(date("2024-01-01"), date("2024-02-29"));

        assertThat(split.days()).isEmpty();
        assertThat(split.wholeMonths()).containsExactly(date("2024-01-01"), date("2024-02-01"));
    }

    @Test
    void aRangeThatEndsAMonthReadsOnlyItsFirstDaysPerDay() {
        MonthSplit split = MonthSplit.of(date("2026-01-31"), date("2026-02-28"));

        assertThat(split.days()).containsExactly(span("2026-01-31", "2026-01-31"));
        assertThat(split.wholeMonths()).containsExactly(date("2026-02-01"));
    }

    @Test
    void everyDayOfTheRangeIsReadExactlyOnce() {
        LocalDate start = date("2025-12-15");
        for (int from = 0; from < 80; from += 3) {
            for (int length = 1; length < 400; length += 7) {
                LocalDate first = start.plusDays(from);
                LocalDate last = first.plusDays(length - 1);
                MonthSplit split = MonthSplit.of(first, last);
                long covered = 0;
                LocalDate next = first;
                List<MonthSplit.Span> pieces = new java.util.ArrayList<>(split.days());
                split.wholeMonths()
                        .forEach(m -> pieces.add(span(
                                m.toString(),
                                m.withDayOfMonth(m.lengthOfMonth()).toString())));
                pieces.sort(java.util.Comparator.comparing(MonthSplit.Span::from));
                for (MonthSplit.Span piece : pieces) {
                    assertThat(piece.from()).isEqualTo(next);
                    covered += piece.to().toEpochDay() - piece.from().toEpochDay() + 1;
                    next = piece.to().plusDays(1);
                }
                assertThat(covered).isEqualTo(length);
                assertThat(split.days().stream()
                                .mapToLong(d -> d.to().toEpochDay() - d.from().toEpochDay() + 1)
                                .sum())
                        .isLessThanOrEqualTo(61);
            }
        }
    }

    @Test
    void aReversedRangeIsRejected() {
        assertThatThrownBy(() -> MonthSplit.of(date("2026-02-02"), date("2026-02-01")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static LocalDate date(String text) {
        return LocalDate.parse(text);
    }

    private static MonthSplit.Span span(String from, String to) {
        return new MonthSplit.Span(date(from), date(to));
    }
}
