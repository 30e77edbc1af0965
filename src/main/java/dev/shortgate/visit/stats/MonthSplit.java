package dev.shortgate.visit.stats;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A UTC date range cut into the calendar months it covers whole and the days of the (at most two) months it only
 * cuts into. Stats read whole months from the monthly roll-ups and the rest per day, so a request reads at most
 * about 61 days of rows plus one row per month, whatever its length.
 *
 * @param days   the ranges to read per day, in date order (none, one or two)
 * @param months the first days of the first and last whole month, when the range covers a whole month
 */
record MonthSplit(List<Span> days, Optional<Span> months) {

    /** The days {@code from} to {@code to}, both included. */
    record Span(LocalDate from, LocalDate to) {}

    static MonthSplit of(LocalDate from, LocalDate to) {
        if (from.isAfter(to)) {
            throw new IllegalArgumentException("from " + from + " is after to " + to);
        }
        LocalDate firstWhole =
                from.getDayOfMonth() == 1 ? from : from.withDayOfMonth(1).plusMonths(1);
        LocalDate lastWholeEnd = to.equals(to.withDayOfMonth(to.lengthOfMonth()))
                ? to
                : to.withDayOfMonth(1).minusDays(1);
        if (firstWhole.isAfter(lastWholeEnd)) {
            return new MonthSplit(List.of(new Span(from, to)), Optional.empty());
        }
        List<Span> days = new ArrayList<>(2);
        if (from.isBefore(firstWhole)) {
            days.add(new Span(from, firstWhole.minusDays(1)));
        }
        if (lastWholeEnd.isBefore(to)) {
            days.add(new Span(lastWholeEnd.plusDays(1), to));
        }
        return new MonthSplit(List.copyOf(days), Optional.of(new Span(firstWhole, lastWholeEnd.withDayOfMonth(1))));
    }

    /** The first day of every whole month, in order. */
    List<LocalDate> wholeMonths() {
        List<LocalDate> list = new ArrayList<>();
        months.ifPresent(m -> {
            for (LocalDate month = m.from(); !month.isAfter(m.to()); month = month.plusMonths(1)) {
                list.add(month);
            }
        });
        return list;
    }
}
