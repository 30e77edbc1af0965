package dev.shortgate.support;

import java.util.Map;
import java.util.TreeMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** The write conflicts and retries a pod counted ({@code shortgate.database.conflicts} and {@code .retries}). */
public final class Conflicts {

    private Conflicts() {}

    /** {@code conflicts/<operation>} and {@code retries/<operation>/<result>} to their counts, non-zero ones only. */
    public static Map<String, Long> of(RunningApp app) {
        MeterRegistry registry = app.bean(MeterRegistry.class);
        Map<String, Long> counts = new TreeMap<>();
        for (Counter c : registry.find("shortgate.database.conflicts").counters()) {
            put(counts, "conflicts/" + c.getId().getTag("operation"), c.count());
        }
        for (Counter c : registry.find("shortgate.database.retries").counters()) {
            put(
                    counts,
                    "retries/" + c.getId().getTag("operation") + "/" + c.getId().getTag("result"),
                    c.count());
        }
        return counts;
    }

    /** The count of one operation's conflicts on a pod. */
    public static long conflicts(RunningApp app, String operation) {
        Counter counter = app.bean(MeterRegistry.class)
                .find("shortgate.database.conflicts")
                .tag("operation", operation)
                .counter();
        return counter == null ? 0 : (long) counter.count();
    }

    private static void put(Map<String, Long> counts, String key, double value) {
        if (value > 0) {
            counts.merge(key, (long) value, Long::sum);
        }
    }
}
