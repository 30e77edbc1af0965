package dev.shortgate.visit.counts;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shortgate.visit.Dimension;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.counts.VisitCountFlusher.DayCount;
import dev.shortgate.visit.counts.VisitCountFlusher.DimCount;
import dev.shortgate.visit.counts.VisitCountFlusher.Flush;
import dev.shortgate.visit.counts.VisitCountFlusher.OrphanCount;
import dev.shortgate.visit.enrich.UserAgentParser;
import dev.shortgate.visit.enrich.VisitEnricher;

/**
 * Turns the entries drained from the {@link VisitTally} into the deltas of one {@link Flush}: it classifies each
 * distinct entry (Yauaa for the user agent, GeoIP2 for the network, both cached by the {@link VisitEnricher}) and
 * sums the visits per link and day, per link, day, dimension and label, and per orphan type and day, in the tables'
 * key order. A visit's browser, OS and device class go into one {@link Dimension#AGENT} row while the link's
 * combinations of the day fit in {@code max-labels}, and into their own rows past that. It keeps the labels this pod
 * has admitted per link, day and dimension, so that one holds at most {@code max-labels} and the rest count as
 * {@link Dimension#OTHER}, and it remembers which agents it found to be bots, for {@link #isBot}. Called on a worker
 * thread by one flush at a time (the {@link VisitCountFlusher}'s flushes never overlap); {@link #isBot} may be called
 * from any thread.
 */
final class CountClassifier {

    private record DayKey(String code, long epochDay) implements Comparable<DayKey> {
        @Override
        public int compareTo(DayKey o) {
            int c = code.compareTo(o.code);
            return c != 0 ? c : Long.compare(epochDay, o.epochDay);
        }
    }

    private record DimKey(String code, long epochDay, Dimension dimension, String label) implements Comparable<DimKey> {
        @Override
        public int compareTo(DimKey o) {
            int c = code.compareTo(o.code); // the table's key order, so concurrent pods lock rows in one order
            if (c == 0) {
                c = Long.compare(epochDay, o.epochDay);
            }
            if (c == 0) {
                c = dimension.compareTo(o.dimension);
            }
            return c != 0 ? c : label.compareTo(o.label);
        }
    }

    /**
     * The labels this pod kept for one link and day, per dimension (one map entry per link and day, so a pod that
     * saw 100,000 links today holds 100,000 of these): per dimension {@code null} (none yet), an array exactly as
     * long as the labels it holds while they are at most {@link #FEW} (most links show one browser, one OS, one
     * country on a day), then a set.
     */
    private static final class KeptLabels {
        final Object[] byDimension = new Object[Dimension.values().length]; // null, String[] or Set<String>
    }

    /** Labels of one link, day and dimension kept in an array, searched in turn; past this, in a set. */
    static final int FEW = 8;

    private static final String[] NONE = {};

    private final VisitEnricher enricher;
    private final int maxLabels;
    private final Clock clock;
    private final Cache<String, Boolean> botByAgent =
            Caffeine.newBuilder().maximumSize(10_000).build();
    private final Map<DayKey, KeptLabels> labels = new HashMap<>();
    private long labelsDay = Long.MIN_VALUE;

    CountClassifier(VisitEnricher enricher, int maxLabels, Clock clock) {
        this.enricher = enricher;
        this.maxLabels = maxLabels;
        this.clock = clock;
    }

    /**
     * Whether a visit with this agent is a bot, without parsing it on the caller's thread: this classifier's
     * verdict on the agent when it has seen it, else what the agent looks like.
     */
    boolean isBot(String agent) {
        Boolean known = agent == null ? null : botByAgent.getIfPresent(agent);
        return known != null ? known : UserAgentParser.looksLikeBot(agent);
    }

    /** Classifies the drained entries and sums them per link and day, and per dimension and label. */
    Flush flush(byte[] writer, long seq, List<VisitTally.Count> counts) {
        long today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toEpochDay();
        if (today != labelsDay) {
            labels.keySet().removeIf(key -> key.epochDay() < today - 1);
            labelsDay = today;
        }
        Map<DayKey, long[]> days = new TreeMap<>();
        Map<DimKey, long[]> dims = new TreeMap<>();
        Map<DayKey, long[]> orphans = new TreeMap<>(); // keyed by the tally key (type and domain) and the day
        List<VisitTally.Count> biggestFirst = new ArrayList<>(counts);
        biggestFirst.sort((a, b) -> Long.compare(b.visits(), a.visits())); // the busiest labels get the free slots
        for (VisitTally.Count count : biggestFirst) {
            VisitTally.Facts facts = count.facts();
            long n = count.visits();
            boolean bot;
            String[] values = new String[Dimension.values().length];
            if (OrphanVisitType.ofTallyKey(facts.code()) != null) { // a day's and type's count, no dimensions
                bot = facts.kind() == VisitTally.Facts.DISTINCT
                        ? enricher.agent(facts.agent()).bot()
                        : facts.kind() == VisitTally.Facts.OTHER_BOT;
                add(orphans.computeIfAbsent(new DayKey(facts.code(), facts.epochDay()), k -> new long[2]), n, bot);
                continue;
            }
            if (facts.kind() == VisitTally.Facts.DISTINCT) {
                UserAgentParser.Parsed agent = enricher.agent(facts.agent());
                bot = agent.bot();
                if (facts.agent() != null) {
                    botByAgent.put(facts.agent(), bot);
                }
                values[Dimension.COUNTRY.ordinal()] = enricher.country(count.address()); // the network's first
                values[Dimension.BROWSER.ordinal()] = agent.browser();
                values[Dimension.OS.ordinal()] = agent.os();
                values[Dimension.DEVICE_CLASS.ordinal()] = agent.deviceClass();
                values[Dimension.REFERRER_HOST.ordinal()] = facts.refererHost();
                values[Dimension.DESTINATION.ordinal()] = facts.destination();
            } else {
                bot = facts.kind() == VisitTally.Facts.OTHER_BOT;
                Arrays.fill(values, Dimension.OTHER);
                values[Dimension.AGENT.ordinal()] = null; // joined from the three below
                values[Dimension.DESTINATION.ordinal()] = facts.destination(); // only links with rules have one
            }
            DayKey dayKey = new DayKey(facts.code(), facts.epochDay());
            add(days.computeIfAbsent(dayKey, k -> new long[2]), n, bot);
            KeptLabels kept = null;
            String agent = Dimension.agentLabel(
                    values[Dimension.BROWSER.ordinal()],
                    values[Dimension.OS.ordinal()],
                    values[Dimension.DEVICE_CLASS.ordinal()]);
            if (agent != null) { // one row for the three, while the link's combinations of the day fit
                kept = labels.computeIfAbsent(dayKey, k -> new KeptLabels());
                if (!Dimension.OTHER.equals(admit(kept, Dimension.AGENT, agent))) {
                    add(
                            dims.computeIfAbsent(
                                    new DimKey(facts.code(), facts.epochDay(), Dimension.AGENT, agent),
                                    k -> new long[2]),
                            n,
                            bot);
                    values[Dimension.BROWSER.ordinal()] = null;
                    values[Dimension.OS.ordinal()] = null;
                    values[Dimension.DEVICE_CLASS.ordinal()] = null;
                }
            }
            for (Dimension dimension : Dimension.values()) {
                String value = values[dimension.ordinal()];
                if (value != null) {
                    if (kept == null) {
                        kept = labels.computeIfAbsent(dayKey, k -> new KeptLabels());
                    }
                    String label = admit(kept, dimension, value);
                    add(
                            dims.computeIfAbsent(
                                    new DimKey(facts.code(), facts.epochDay(), dimension, label), k -> new long[2]),
                            n,
                            bot);
                }
            }
        }
        List<DayCount> dayCounts = new ArrayList<>(days.size());
        days.forEach((k, v) -> dayCounts.add(new DayCount(k.code(), LocalDate.ofEpochDay(k.epochDay()), v[0], v[1])));
        List<DimCount> dimCounts = new ArrayList<>(dims.size());
        dims.forEach((k, v) -> dimCounts.add(
                new DimCount(k.code(), LocalDate.ofEpochDay(k.epochDay()), k.dimension(), k.label(), v[0], v[1])));
        List<OrphanCount> orphanCounts = new ArrayList<>(orphans.size());
        orphans.forEach((k, v) -> orphanCounts.add(new OrphanCount(
                LocalDate.ofEpochDay(k.epochDay()),
                OrphanVisitType.ofTallyKey(k.code()),
                OrphanVisitType.domainOfTallyKey(k.code()),
                v[0],
                v[1])));
        // the tables' key orders, so concurrent pods lock rows in one order
        orphanCounts.sort(Comparator.comparingInt(OrphanCount::domainId)
                .thenComparing(OrphanCount::day)
                .thenComparing(c -> c.type().id));
        return new Flush(writer, seq, dayCounts, dimCounts, orphanCounts);
    }

    private static void add(long[] count, long n, boolean bot) {
        count[0] += n;
        if (bot) {
            count[1] += n;
        }
    }

    /** The label itself while this pod has kept fewer than {@code max-labels} for the link, day and dimension. */
    private String admit(KeptLabels labelsOfDay, Dimension dimension, String value) {
        String label = value.length() > 255 ? value.substring(0, 255) : value;
        if (Dimension.OTHER.equals(label)) {
            return label;
        }
        int d = dimension.ordinal();
        Object kept = labelsOfDay.byDimension[d];
        if (kept instanceof Set<?> set) {
            @SuppressWarnings("unchecked")
            Set<String> many = (Set<String>) set;
            if (many.contains(label)) {
                return label;
            }
            if (many.size() >= maxLabels) {
                return Dimension.OTHER;
            }
            many.add(label);
            return label;
        }
        String[] few = kept == null ? NONE : (String[]) kept;
        for (String known : few) {
            if (known.equals(label)) {
                return label;
            }
        }
        if (few.length >= maxLabels) {
            return Dimension.OTHER;
        }
        if (few.length < FEW) { // grown by one each time: a link gains at most FEW labels a day here
            String[] grown = Arrays.copyOf(few, few.length + 1);
            grown[few.length] = label;
            labelsOfDay.byDimension[d] = grown;
        } else {
            Set<String> many = new HashSet<>(Arrays.asList(few));
            many.add(label);
            labelsOfDay.byDimension[d] = many;
        }
        return label;
    }
}
