package dev.shortgate.visit.counts;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
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
 * <p>Small in flight. At 20,000 visits a second over 100,000 links nearly every visit is an entry of its own, and
 * an entry lives until its flush is classified: what it holds is what a young collection copies. So an entry is one
 * object, its own key and count, with the network and the first client address as numbers; its link's code is the
 * one string this tally keeps per link, and its user agent and referrer host are interned (up to
 * {@value #MAX_INTERNED} strings), so the strings each request brought die young.
 *
 * <p>Exactness without locks: each entry counts with a CAS. {@link #drain} takes each count and retires the entry
 * in one {@code getAndSet(RETIRED)}, then removes it, so an increment lands either in this flush or, in a fresh
 * entry, in the next one. No increment is ever lost.
 */
public final class VisitTally {

    static final long RETIRED = Long.MIN_VALUE;

    /** Distinct user agents and referrer hosts interned; past this, until the next drain, a visit keeps its own. */
    static final int MAX_INTERNED = 10_000;

    /**
     * What a visit's dimensions follow from, and, as the tally's entry, its count. {@code kind} marks the per-link
     * "other" entries; {@code destination} is the target a redirect rule or split chose, or {@code null}. Equal
     * facts are equal entries whatever their counts; the client address is the first one the entry saw in its
     * network (for the geolocation), not part of the key.
     */
    public static final class Facts {
        public static final byte DISTINCT = 0;
        static final byte OTHER_HUMAN = 1;
        static final byte OTHER_BOT = 2;

        private static final VarHandle VISITS;

        static {
            try {
                VISITS = MethodHandles.lookup().findVarHandle(Facts.class, "visits", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final String code;
        private final long epochDay;
        private final String agent;
        private final String refererHost;
        private final String destination;
        private final byte kind;
        /** 0: no address; 4 or 16: the address's length in bytes. */
        private final byte family;
        /** The network: IPv4, the address's top 24 bits; IPv6, its top 64. */
        private final long network;
        /** The first client address: IPv4, all 32 bits; IPv6, its low 64 (the top 64 are the network). */
        private final long host;

        private final int hash;

        @SuppressWarnings("unused") // through VISITS
        private volatile long visits;

        public Facts(String code, long epochDay, String agent, InetAddress network, String refererHost, byte kind) {
            this(code, epochDay, agent, network, refererHost, kind, null);
        }

        public Facts(
                String code,
                long epochDay,
                String agent,
                InetAddress address,
                String refererHost,
                byte kind,
                String destination) {
            this(code, epochDay, agent, address == null ? null : address.getAddress(), refererHost, kind, destination);
        }

        private Facts(
                String code,
                long epochDay,
                String agent,
                byte[] address,
                String refererHost,
                byte kind,
                String destination) {
            this.code = code;
            this.epochDay = epochDay;
            this.agent = agent;
            this.refererHost = refererHost;
            this.destination = destination;
            this.kind = kind;
            if (address == null) {
                family = 0;
                network = 0;
                host = 0;
            } else if (address.length == 4) {
                family = 4;
                host = bits(address, 0, 4);
                network = host & 0xFFFF_FF00L;
            } else {
                family = 16;
                network = bits(address, 0, 8);
                host = bits(address, 8, 8);
            }
            int h = code.hashCode();
            h = 31 * h + Long.hashCode(epochDay);
            h = 31 * h + Objects.hashCode(agent);
            h = 31 * h + Objects.hashCode(refererHost);
            h = 31 * h + Objects.hashCode(destination);
            h = 31 * h + kind;
            h = 31 * h + family;
            this.hash = 31 * h + Long.hashCode(network);
        }

        private static long bits(byte[] bytes, int from, int length) {
            long value = 0;
            for (int i = from; i < from + length; i++) {
                value = value << 8 | (bytes[i] & 0xFF);
            }
            return value;
        }

        public String code() {
            return code;
        }

        public long epochDay() {
            return epochDay;
        }

        public String agent() {
            return agent;
        }

        public String refererHost() {
            return refererHost;
        }

        public byte kind() {
            return kind;
        }

        public String destination() {
            return destination;
        }

        /** The client's network (its host part zero), or {@code null}. Allocates: for the flush, not the visit. */
        public InetAddress network() {
            return family == 0 ? null : address(network, 0);
        }

        /** The first client address seen in this entry's network, or {@code null}. Allocates. */
        public InetAddress address() {
            return family == 0 ? null : family == 4 ? address(host, 0) : address(network, host);
        }

        /** IPv4: the address in {@code top}'s low 32 bits; IPv6: {@code top} and then {@code low}. */
        private InetAddress address(long top, long low) {
            byte[] bytes = new byte[family];
            if (family == 4) {
                for (int i = 0; i < 4; i++) {
                    bytes[i] = (byte) (top >>> (24 - 8 * i));
                }
            } else {
                for (int i = 0; i < 8; i++) {
                    bytes[i] = (byte) (top >>> (56 - 8 * i));
                    bytes[8 + i] = (byte) (low >>> (56 - 8 * i));
                }
            }
            try {
                return InetAddress.getByAddress(bytes);
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e); // a length of 4 or 16 is always valid
            }
        }

        /** Adds one visit; {@code false} when the entry is retired (put a fresh one in its place). */
        boolean increment() {
            while (true) {
                long n = (long) VISITS.getVolatile(this);
                if (n == RETIRED) {
                    return false;
                }
                if (VISITS.compareAndSet(this, n, n + 1)) {
                    return true;
                }
            }
        }

        /** Retires the entry, answering the visits it had. Once retired it takes no more. */
        long retire() {
            long n = (long) VISITS.getAndSet(this, RETIRED);
            return n == RETIRED ? 0 : n;
        }

        @Override
        public boolean equals(Object o) {
            return this == o
                    || (o instanceof Facts f
                            && hash == f.hash
                            && epochDay == f.epochDay
                            && kind == f.kind
                            && family == f.family
                            && network == f.network
                            && code.equals(f.code)
                            && Objects.equals(agent, f.agent)
                            && Objects.equals(refererHost, f.refererHost)
                            && Objects.equals(destination, f.destination));
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return "Facts[" + code + ", day " + epochDay + ", " + agent + ", " + network() + ", " + refererHost
                    + ", kind " + kind + ", " + destination + "]";
        }
    }

    /** One drained entry: its facts and the visits they had since the last drain. */
    public record Count(Facts facts, long visits) {
        /** The first client address seen in the entry's network, for the geolocation, or {@code null}. */
        public InetAddress address() {
            return facts.address();
        }
    }

    /**
     * The visits per link of some drained counts: what {@link #written} needs once the counts themselves are gone
     * (codes in the counts' order, each once).
     */
    public record Visits(String[] codes, long[] visits) {
        /** The visits per link of these counts. */
        public static Visits of(List<Count> counts) {
            Map<String, long[]> byCode = new LinkedHashMap<>();
            for (Count count : counts) {
                byCode.computeIfAbsent(count.facts().code(), c -> new long[1])[0] += count.visits();
            }
            String[] codes = new String[byCode.size()];
            long[] visits = new long[byCode.size()];
            int i = 0;
            for (Map.Entry<String, long[]> e : byCode.entrySet()) {
                codes[i] = e.getKey();
                visits[i++] = e.getValue()[0];
            }
            return new Visits(codes, visits);
        }

        /** All the visits. */
        public long total() {
            long total = 0;
            for (long n : visits) {
                total += n;
            }
            return total;
        }
    }

    /**
     * Per link: its code (the one string the entries of the link share), visits counted and not yet written (for
     * {@link VisitCounts}), and new entries since the last drain.
     */
    static final class PerCode {
        private static final AtomicLongFieldUpdater<PerCode> UNWRITTEN =
                AtomicLongFieldUpdater.newUpdater(PerCode.class, "unwritten");
        private static final AtomicIntegerFieldUpdater<PerCode> CREATED =
                AtomicIntegerFieldUpdater.newUpdater(PerCode.class, "created");

        final String code;
        private volatile long unwritten;
        private volatile int created;

        PerCode(String code) {
            this.code = code;
        }

        long unwritten() {
            return unwritten;
        }

        long addUnwritten(long delta) {
            return UNWRITTEN.addAndGet(this, delta);
        }

        int created() {
            return created;
        }

        void created(int value) {
            created = value;
        }

        void createdOne() {
            CREATED.incrementAndGet(this);
        }
    }

    private final ConcurrentHashMap<Facts, Facts> entries = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, PerCode> codes = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, String> interned = new ConcurrentHashMap<>();
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

    /** Counts one visit from a client of this address or network. Cheap, never blocks, never fails. */
    public void add(String code, long epochDay, String agent, InetAddress client, String refererHost) {
        add(code, epochDay, agent, client, refererHost, null);
    }

    /**
     * Counts one visit, on the event loop: cheap, never blocks, never fails. {@code client} is the client's own
     * address: the entry is the client's network's (IPv4 /24, IPv6 /64), and keeps the first address it saw, so the
     * country can be looked up for an address a GeoIP database knows. {@code destination} is the target a redirect
     * rule or split sent the visit to ({@code null}: the link's URL). {@code agent} is kept as given: pass the
     * {@link #intern interned} one, which the caller's raw row shares too (the referrer host is interned here).
     */
    public void add(
            String code, long epochDay, String agent, InetAddress client, String refererHost, String destination) {
        PerCode perCode = codes.get(code); // get first: computeIfAbsent locks the bin even when the key is there
        if (perCode == null) {
            perCode = codes.computeIfAbsent(code, PerCode::new);
        }
        Facts facts =
                new Facts(perCode.code, epochDay, agent, client, intern(refererHost), Facts.DISTINCT, destination);
        if (perCode.created() >= maxDistinctPerCode && !entries.containsKey(facts)) {
            facts = new Facts(
                    perCode.code,
                    epochDay,
                    null,
                    (byte[]) null,
                    null,
                    looksLikeBot.test(agent) ? Facts.OTHER_BOT : Facts.OTHER_HUMAN,
                    destination == null ? null : Dimension.OTHER);
        }
        increment(facts, perCode);
        perCode.addUnwritten(1);
        pending.increment();
    }

    /**
     * The one instance of this string (a user agent, a referrer host) the tally keeps, while it keeps at most
     * {@link #MAX_INTERNED}; else the string itself. A raw row that keeps its visit's agent this way holds no string
     * of its own while it waits for its batch.
     */
    public String intern(String value) {
        if (value == null) {
            return null;
        }
        String known = interned.get(value);
        if (known != null) {
            return known;
        }
        if (interned.size() >= MAX_INTERNED) {
            return value;
        }
        known = interned.putIfAbsent(value, value);
        return known != null ? known : value;
    }

    /** Adds one to the entry of these facts; they become the entry when there is none. */
    private void increment(Facts facts, PerCode perCode) {
        while (true) {
            Facts entry = entries.get(facts);
            if (entry == null) {
                facts.visits = 1; // not shared yet
                entry = entries.putIfAbsent(facts, facts);
                if (entry == null) {
                    perCode.createdOne();
                    return;
                }
            }
            if (entry.increment()) {
                return;
            }
            remove(entry); // retired by a drain: a fresh entry takes its place
        }
    }

    /**
     * Removes this retired entry, and not a fresh one equal to it that took its place: {@code remove(key, value)}
     * would compare the values with {@code equals}, which for facts is their content.
     */
    private void remove(Facts retired) {
        entries.computeIfPresent(retired, (facts, entry) -> entry == retired ? null : entry);
    }

    /**
     * Takes every count gathered since the last drain, and retires the entries (a later visit makes a fresh one,
     * so what is drained is not held twice). Called by the one flusher, never concurrently with itself.
     */
    List<Count> drain() {
        List<Count> counts = new ArrayList<>(entries.size());
        for (Facts entry : entries.keySet()) {
            long n = entry.retire();
            remove(entry);
            if (n > 0) {
                counts.add(new Count(entry, n));
            }
        }
        codes.forEach((code, perCode) -> perCode.created(0));
        if (interned.size() >= MAX_INTERNED) {
            interned.clear(); // many distinct agents: start over, so the current ones are interned again
        }
        return counts;
    }

    /** The visits of these counts are written: they no longer count as held in memory. */
    void written(List<Count> counts) {
        written(Visits.of(counts));
    }

    /** These visits are written: they no longer count as held in memory. */
    void written(Visits written) {
        long total = 0;
        for (int i = 0; i < written.codes().length; i++) {
            String code = written.codes()[i];
            long n = written.visits()[i];
            total += n;
            PerCode perCode = codes.get(code);
            if (perCode != null
                    && perCode.addUnwritten(-n) <= 0
                    && perCode.created() == 0) { // only the links of these counts: a flush comes in chunks
                codes.remove(code, perCode); // idle: a later visit makes a new one
            }
        }
        pending.add(-total);
    }

    /**
     * Forgets every visit of this link counted here and not yet drained (its visits are being deleted). Visits
     * already drained belong to the flush in progress; the caller waits for it. Answers the visits forgotten.
     */
    long forget(String code) {
        long forgotten = 0;
        for (Facts entry : entries.keySet()) {
            if (entry.code().equals(code)) {
                forgotten += entry.retire();
                remove(entry);
            }
        }
        PerCode perCode = codes.get(code);
        if (perCode != null) {
            perCode.addUnwritten(-forgotten);
        }
        pending.add(-forgotten);
        return forgotten;
    }

    /** Visits of this link counted by this pod and not yet written to the database. */
    public long unwritten(String code) {
        PerCode perCode = codes.get(code);
        return perCode == null ? 0 : Math.max(0, perCode.unwritten());
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
