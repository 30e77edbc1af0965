package dev.shortgate.visit.counts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.LocalDate;
import java.util.AbstractList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.MultiRowSqls;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

class VisitCountWriterTest {

    private final VisitCountWriter writer = new VisitCountWriter(MultiRowSqls.withLiterals(), null, Clock.systemUTC());
    private final LocalDate day = LocalDate.of(2026, 11, 26);

    @Test
    void aFlushBuildsEachUpsertOnlyWhenItIsAskedForInTableAndKeyOrder() {
        List<String> built = new CopyOnWriteArrayList<>();
        List<VisitCountFlusher.DayCount> days = watched(
                IntStream.range(0, 2_500)
                        .mapToObj(i -> new VisitCountFlusher.DayCount("c%05d".formatted(i), day, 2, 1))
                        .toList(),
                "days",
                built);
        List<VisitCountFlusher.DimCount> dims = watched(
                List.of(new VisitCountFlusher.DimCount("c00000", day, Dimension.COUNTRY, "GB", 2, 1)), "dims", built);
        VisitCountFlusher.Flush flush = new VisitCountFlusher.Flush(new byte[8], 1, days, dims);

        StepVerifier.create(writer.deltas(flush), 0)
                .then(() -> assertThat(built).isEmpty())
                .thenRequest(1)
                .assertNext(sql -> {
                    assertThat(sql.text()).startsWith("INSERT INTO link_stats ");
                    assertThat(sql.text().split("\\), \\(")).hasSize(1_000);
                })
                .then(() -> assertThat(built).containsExactly("days 0-1000"))
                .thenRequest(2)
                .expectNextCount(2)
                .then(() -> assertThat(built).containsExactly("days 0-1000", "days 1000-2000", "days 2000-2500"))
                .thenRequest(1)
                .assertNext(sql -> assertThat(sql.text()).startsWith("INSERT INTO visit_dim_stats "))
                .thenRequest(1)
                .assertNext(sql -> assertThat(sql.text()).startsWith("INSERT INTO visit_dim_month "))
                .thenRequest(1)
                .verifyComplete();
    }

    /** The list, noting each slice taken from it (a statement's rows) in {@code built}. */
    private static <T> List<T> watched(List<T> items, String name, List<String> built) {
        return new AbstractList<>() {
            @Override
            public T get(int index) {
                return items.get(index);
            }

            @Override
            public int size() {
                return items.size();
            }

            @Override
            public List<T> subList(int from, int to) {
                built.add(name + " " + from + "-" + to);
                return items.subList(from, to);
            }
        };
    }
}
