package dev.shortgate.visit.counts;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

import dev.shortgate.visit.Dimension;

/**
 * Every visit's counts, held in memory until the count flusher takes them: exact, never dropped, and bounded by
 * the active links rather than by the traffic.
 *
 * <p>A visit adds one to the entry of its {@link Facts}: the link, the UTC day, the user agent, the client's
 * network (IPv4 /24, IPv6 /64) and the referrer host. Everything a count flush needs (bot or not, browser, OS,
 * device class, country) follows from those facts, so the parsing and look-ups happen once per distinct entry at
 * flush time, on a worker thread, never on the event loop. A pod holds at most {@code max-distinct-per-code} new
 * entries per link between two flushes; visits beyond that add to the link's "other" entry, whose dimensions are
 * all "other" (bot or not is still told apart, from the flusher's classification cache or the user agent's look).
 *
 * <p>Exactness without locks: each entry is an {@link AtomicLong}. {@link #drain} takes each count with
 * {@code getAndSet(0)}, so an increment lands either in this flush or in the next one. An entry that stayed at 0
 * for a whole flush is retired by swinging it from 0 to {@link #RETIRED} and removing it; an increment that finds
 * a retired entry puts a fresh one in its place. No increment is ever lost.
 */
public final class VisitTally {

    static final long RETIRED = Long.MIN_VALUE;

    /**
     * What a visit's dimensions follow from. {@code kind} marks the per-link "other" entries; {@code destination}
     * is the target a redirect rule or split chose, or {@code null}.
     */
    public record Facts(
            String code,
            long epochDay,
            String agent,
            InetAddress network,
            String refererHost,
            byte kind,
            String destination) {
        public static final byte DISTINCT = 0;
        static final byte OTHER_HUMAN = 1;
        static final byte OTHER_BOT = 2;

        public Facts(String code, long epochDay, String agent, InetAddress network, String refererHost, byte kind) {
            this(code, epochDay, agent, network, refererHost, kind, null);
        }
    }

    /**
     * One drained entry: its facts, the visits they had since the last drain, and one client address of the
     * entry's network (the first seen) for the geolocation.
     */
    public record Count(Facts facts, long visits, InetAddress address) {
        public Count(Facts facts, long visits) {
            this(facts, visits, null);
        }
    }

    /** An entry's count, and the first client address seen in its network. */
    private static final class Entry extends AtomicLong {
        final transient InetAddress address;

        Entry(long initial, InetAddress address) {
            super(initial);
            this.address = address;
        }
    }

    /** Per link: visits counted and not yet written (for {@link VisitCounts}), new entries since the last drain. */
    static final class PerCode {
        final AtomicLong unwritten = new AtomicLong();
        final AtomicInteger created = new AtomicInteger();
    }

    private final ConcurrentHashMap<Facts, Entry> entries = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, PerCode> codes = new ConcurrentHashMap<>();
    private final int maxDistinctPerCode;
    private final Predicate<String> looksLikeBot;
    private final LongAdder pending = new LongAdder(); // striped: every event loop adds to it

    /**
     * @param looksLikeBot whether an agent is a bot, from what is known without parsing it (used only for
     *                     visits counted under "other")
     */
    public VisitTally(int maxDistinctPerCode, Predicate<String> looksLikeBot) {
        this.maxDistinctPerCode = maxDistinctPerCode;
        this.looksLikeBot = looksLikeBot;
    }

    /** Counts one visit. Cheap, never blocks, never fails: called on the event loop. */
    public void add(String code, long epochDay, String agent, InetAddress network, String refererHost) {
        add(code, epochDay, agent, network, refererHost, network);
    }

    /**
     * Counts one visit; {@code address} is the client's own address within {@code network} (the entry keeps the
     * first one, so the country can be looked up for an address a GeoIP database knows).
     */
    public void add(
            String code, long epochDay, String agent, InetAddress network, String refererHost, InetAddress address) {
        add(code, epochDay, agent, network, refererHost, address, null);
    }

    /** As above, for a visit a redirect rule or split sent to {@code destination} ({@code null}: the link's URL). */
    public void add(
            String code,
            long epochDay,
            String agent,
            InetAddress network,
            String refererHost,
            InetAddress address,
            String destination) {
        PerCode perCode = codes.get(code); // get first: computeIfAbsent locks the bin even when the key is there
        if (perCode == null) {
            perCode = codes.computeIfAbsent(code, c -> new PerCode());
        }
        Facts facts = new Facts(code, epochDay, agent, network, refererHost, Facts.DISTINCT, destination);
        Entry entry = entries.get(facts);
        if (entry == null && perCode.created.get() >= maxDistinctPerCode) {
            facts = new Facts(
                    code,
                    epochDay,
                    null,
                    null,
                    null,
                    looksLikeBot.test(agent) ? Facts.OTHER_BOT : Facts.OTHER_HUMAN,
                    destination == null ? null : Dimension.OTHER);
            address = null;
        }
        increment(facts, perCode, address);
        perCode.unwritten.incrementAndGet();
        pending.increment();
    }

    private void increment(Facts facts, PerCode perCode, InetAddress address) {
        while (true) {
            Entry entry = entries.get(facts);
            if (entry == null) {
                Entry fresh = new Entry(1, address);
                entry = entries.putIfAbsent(facts, fresh);
                if (entry == null) {
                    perCode.created.incrementAndGet();
                    return;
                }
            }
            long n = entry.get();
            if (n == RETIRED) {
                entries.remove(facts, entry);
            } else if (entry.compareAndSet(n, n + 1)) {
                return;
            }
        }
    }

    /**
     * Takes every count gathered since the last drain, and retires the entries that had none. Called by the one
     * flusher, never concurrently with itself.
     */
    List<Count> drain() {
        List<Count> counts = new ArrayList<>();
        entries.forEach((facts, entry) -> {
            long n = entry.getAndUpdate(v -> v == RETIRED ? RETIRED : 0);
            if (n > 0) {
                counts.add(new Count(facts, n, entry.address));
            } else if (n == 0 && entry.compareAndSet(0, RETIRED)) {
                entries.remove(facts, entry);
            }
        });
        codes.forEach((code, perCode) -> perCode.created.set(0));
        return counts;
    }

    /** The visits of these counts are written: they no longer count as held in memory. */
    void written(List<Count> counts) {
        long total = 0;
        java.util.Set<String> touched = new java.util.HashSet<>();
        for (Count count : counts) {
            PerCode perCode = codes.get(count.facts().code());
            if (perCode != null) {
                perCode.unwritten.addAndGet(-count.visits());
                touched.add(count.facts().code());
            }
            total += count.visits();
        }
        pending.add(-total);
        for (String code : touched) { // only the links of these counts: a flush of 100,000 links comes in chunks
            PerCode perCode = codes.get(code);
            if (perCode != null && perCode.unwritten.get() <= 0 && perCode.created.get() == 0) {
                codes.remove(code, perCode); // idle: a later visit makes a new one
            }
        }
    }

    /**
     * Forgets every visit of this link counted here and not yet drained (its visits are being deleted). Visits
     * already drained belong to the flush in progress; the caller waits for it. Answers the visits forgotten.
     */
    long forget(String code) {
        long forgotten = 0;
        for (var e : entries.entrySet()) {
            if (e.getKey().code().equals(code)) {
                long n = e.getValue().getAndSet(RETIRED);
                if (n > 0) {
                    forgotten += n;
                }
                entries.remove(e.getKey(), e.getValue());
            }
        }
        PerCode perCode = codes.get(code);
        if (perCode != null) {
            perCode.unwritten.addAndGet(-forgotten);
        }
        pending.add(-forgotten);
        return forgotten;
    }

    /** Visits of this link counted by this pod and not yet written to the database. */
    public long unwritten(String code) {
        PerCode perCode = codes.get(code);
        return perCode == null ? 0 : Math.max(0, perCode.unwritten.get());
    }

    /** Visits counted by this pod and not yet written. */
    public long pending() {
        return pending.sum();
    }

    /** Entries held now (distinct facts), for the bound on memory. */
    public int size() {
        return entries.size();
    }

    /**
     * The host of a referrer URL, lower case, without user info or port; {@code null} when there is none. Only
     * string scanning: it runs on the event loop.
     */
    public static String refererHost(String referer) {
        if (referer == null) {
            return null;
        }
        int scheme = referer.indexOf("://");
        int start = scheme < 0 ? 0 : scheme + 3;
        int end = referer.length();
        for (int i = start; i < referer.length(); i++) {
            char c = referer.charAt(i);
            if (c == '/' || c == '?' || c == '#' || c == '\\') {
                end = i;
                break;
            }
        }
        int at = referer.lastIndexOf('@', end - 1);
        if (at >= start) {
            start = at + 1;
        }
        if (start < end && referer.charAt(start) == '[') {
            int close = referer.indexOf(']', start);
            end = close > 0 && close < end ? close + 1 : end;
        } else {
            int colon = referer.indexOf(':', start);
            if (colon >= 0 && colon < end) {
                end = colon;
            }
        }
        if (start >= end || scheme < 0) {
            return null;
        }
        String host = referer.substring(start, Math.min(end, start + 255)).toLowerCase(Locale.ROOT);
        return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    }
}
