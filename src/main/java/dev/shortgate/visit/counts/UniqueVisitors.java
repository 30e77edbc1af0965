package dev.shortgate.visit.counts;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;

/**
 * Unique visitors as HyperLogLog sketches (Apache DataSketches, {@code HLL_4}, lgK {@value #LG_K}): per link and UTC
 * day, one sketch of every visitor and one of the visitors not classed as bots. A visitor is its IP address and user
 * agent, as for the raw rows' client id. A sketch costs the same for 10 visitors or 10 million (at most about
 * 2.6 KB), and sketches of any pods and days merge into the sketch of their union; the estimate's relative standard
 * error is about {@value #RELATIVE_ERROR_PERCENT}% (1.04 / sqrt(4096)), so 95% of estimates fall within about 3.3%.
 *
 * <p>Each pod keeps its sketches of the current day in memory (a few bytes per visitor up to about 2.6 KB per link)
 * and writes the changed ones every {@code sketch-flush-interval} as whole rows keyed by link, day and writer (a
 * random id per sketch instance), so a write is idempotent and a retry harmless. Sketches of past days are dropped
 * from memory once written.
 */
public final class UniqueVisitors {

    static {
        SketchMemory.load(); // before any sketch: datasketches-memory checks the JDK's version then
    }

    static final int LG_K = 12;
    static final String RELATIVE_ERROR_PERCENT = "1.6";

    /** Day sketches of one link on this pod. Guarded by its own monitor. */
    static final class DaySketch {
        final String code;
        final long epochDay;
        final byte[] writer = new byte[8];
        final HllSketch all = new HllSketch(LG_K, TgtHllType.HLL_4);
        final HllSketch humans = new HllSketch(LG_K, TgtHllType.HLL_4);
        final long createdAt;
        boolean dirty;
        boolean retired;
        /** Its link's visits were deleted: its row must not be written any more. */
        boolean forgotten;
        /** Taken by {@link #dirty} and its row not yet taken: it is not taken again meanwhile. */
        boolean queued;

        DaySketch(String code, long epochDay, SecureRandom random, long createdAt) {
            this.code = code;
            this.epochDay = epochDay;
            this.createdAt = createdAt;
            random.nextBytes(writer);
        }
    }

    /** A sketch row to write: its key and the two sketches as compact bytes. */
    public record Row(String code, long epochDay, byte[] writer, byte[] visitors, byte[] humanVisitors) {}

    record Key(String code, long epochDay) {}

    private final ConcurrentHashMap<Key, DaySketch> sketches = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;

    public UniqueVisitors() {
        this(Clock.systemUTC());
    }

    /** @param clock when a sketch was started, to tell it from a deletion of its link's visits */
    public UniqueVisitors(Clock clock) {
        this.clock = clock;
    }

    /** Adds a visitor. Cheap and never blocks for long: one short lock per link and day, on the event loop. */
    public void add(String code, long epochDay, InetAddress ip, String agent, boolean bot) {
        long visitor = visitor(ip, agent);
        Key key = new Key(code, epochDay);
        while (true) {
            DaySketch day = sketches.get(key); // get first: computeIfAbsent locks the bin even when the key is there
            if (day == null) {
                day = sketches.computeIfAbsent(key, k -> new DaySketch(k.code(), k.epochDay(), random, clock.millis()));
            }
            synchronized (day) {
                if (!day.retired) {
                    day.all.update(visitor);
                    if (!bot) {
                        day.humans.update(visitor);
                    }
                    day.dirty = true;
                    return;
                }
            }
            sketches.remove(key, day);
        }
    }

    /**
     * The sketches changed since the last call, as rows; sketches of days before {@code today} are retired from
     * memory once taken (a later visit of such a day, which the clock does not make, would start a new writer).
     */
    List<Row> changed(long today) {
        return dirty(today).stream()
                .map(UniqueVisitors::row)
                .filter(Objects::nonNull)
                .toList();
    }

    /**
     * The sketches changed since the last call and not taken already without their rows taken since, to be
     * serialized with {@link #row} when written: a flush of 100,000 links then holds their rows one transaction at a
     * time, not all at once for as long as the flush takes, and what waits for its row is bounded by the links. Sketches
     * of days before {@code today} are retired from memory here (a later visit of such a day, which the clock does
     * not make, would start a new writer); their rows can still be taken.
     */
    List<DaySketch> dirty(long today) {
        List<DaySketch> dirty = new ArrayList<>();
        sketches.forEach((key, day) -> {
            synchronized (day) {
                if (day.dirty && !day.queued) { // a queued one is serialized as it is then: changes since are in it
                    dirty.add(day);
                    day.dirty = false;
                    day.queued = true;
                }
                if (day.epochDay < today) {
                    day.retired = true;
                    sketches.remove(key, day);
                }
            }
        });
        return dirty;
    }

    /**
     * A sketch's row, as it is now (a visit since it was found dirty is in it, and marks it dirty again); {@code null}
     * once its link's visits were deleted ({@link #forget}).
     */
    static Row row(DaySketch day) {
        synchronized (day) {
            day.queued = false;
            if (day.forgotten) {
                return null;
            }
            return new Row(
                    day.code, day.epochDay, day.writer, day.all.toCompactByteArray(), day.humans.toCompactByteArray());
        }
    }

    /**
     * Drops this link's sketches started at or before {@code before} (epoch milliseconds; all of them when
     * {@code Long.MAX_VALUE}), because its visits were deleted; answers their keys, as rows without sketches, so
     * what they wrote can be deleted too. A sketch started later holds only visitors that came after the deletion.
     */
    List<Row> forget(String code, long before) {
        List<Row> forgotten = new ArrayList<>();
        sketches.forEach((key, day) -> {
            if (key.code().equals(code)) {
                synchronized (day) {
                    if (day.createdAt <= before && !day.retired) {
                        day.retired = true;
                        day.forgotten = true;
                        sketches.remove(key, day);
                        forgotten.add(new Row(day.code, day.epochDay, day.writer, null, null));
                    }
                }
            }
        });
        return forgotten;
    }

    /** Sketches held in memory. */
    int size() {
        return sketches.size();
    }

    /** The estimated number of distinct visitors in the union of these serialized sketches. */
    public static long estimate(List<byte[]> serialized) {
        if (serialized.isEmpty()) {
            return 0;
        }
        Union union = new Union(LG_K);
        for (byte[] bytes : serialized) {
            union.update(HllSketch.heapify(bytes));
        }
        return Math.round(union.getEstimate());
    }

    /** The union of these serialized sketches, serialized (compact {@code HLL_4}); it merges like its parts. */
    public static byte[] union(List<byte[]> serialized) {
        Union union = new Union(LG_K);
        for (byte[] bytes : serialized) {
            union.update(HllSketch.heapify(bytes));
        }
        return union.getResult(TgtHllType.HLL_4).toCompactByteArray();
    }

    /**
     * A visitor's 64-bit key: its IP address and user agent. DataSketches hashes it again (MurmurHash3), so the
     * key only has to tell visitors apart; it is the same on every pod, which lets their sketches merge.
     */
    static long visitor(InetAddress ip, String agent) {
        long address = ip == null ? 0 : ip.hashCode();
        return (address << 32) ^ ((agent == null ? 0 : agent.hashCode()) & 0xffffffffL);
    }
}
