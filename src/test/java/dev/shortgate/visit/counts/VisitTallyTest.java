package dev.shortgate.visit.counts;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class VisitTallyTest {

    @Test
    void everyVisitLandsInExactlyOneDrainWhileFourThreadsCountAndOneDrains() throws Exception {
        VisitTally tally = new VisitTally(50, agent -> false);
        int threads = 4;
        int perThread = 200_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicBoolean done = new AtomicBoolean();
        List<CompletableFuture<Void>> adders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            adders.add(CompletableFuture.runAsync(
                    () -> {
                        for (int i = 0; i < perThread; i++) {
                            // few codes and agents: entries are drained, retired and recreated all the time
                            tally.add("c" + (i % 3), 20_000, "agent" + ((i + thread) % 7), null, null);
                        }
                    },
                    pool));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(adders.toArray(CompletableFuture[]::new))
                .whenComplete((v, e) -> done.set(true));
        long drained = 0;
        while (!done.get()) {
            drained += sum(tally.drain());
        }
        all.get(60, TimeUnit.SECONDS);
        drained += sum(tally.drain());
        pool.shutdown();

        assertThat(drained).isEqualTo((long) threads * perThread);
        assertThat(tally.pending()).isEqualTo((long) threads * perThread);
        tally.drain(); // idle entries are retired
        assertThat(tally.size()).isZero();
    }

    @Test
    void visitsBeyondTheDistinctBoundOfALinkAreCountedUnderOtherAndStillTellBotsApart() {
        VisitTally tally = new VisitTally(2, agent -> agent.startsWith("bot"));
        for (String agent : List.of("a", "b", "c", "bot1", "a")) {
            tally.add("x", 1, agent, null, null);
        }

        List<VisitTally.Count> counts = tally.drain();

        assertThat(sum(counts)).isEqualTo(5);
        assertThat(counts)
                .filteredOn(c -> c.facts().kind() == VisitTally.Facts.DISTINCT)
                .extracting(c -> c.facts().agent())
                .containsExactlyInAnyOrder("a", "b");
        assertThat(counts)
                .filteredOn(c -> c.facts().kind() == VisitTally.Facts.OTHER_HUMAN)
                .extracting(VisitTally.Count::visits)
                .containsExactly(1L);
        assertThat(counts)
                .filteredOn(c -> c.facts().kind() == VisitTally.Facts.OTHER_BOT)
                .extracting(VisitTally.Count::visits)
                .containsExactly(1L);
    }

    @Test
    void unwrittenVisitsOfALinkAreThoseNotYetReportedWritten() {
        VisitTally tally = new VisitTally(10, agent -> false);
        tally.add("x", 1, "a", null, null);
        tally.add("x", 1, "a", null, null);
        List<VisitTally.Count> first = tally.drain();
        tally.add("x", 1, "a", null, null);

        assertThat(tally.unwritten("x")).isEqualTo(3);
        tally.written(first);
        assertThat(tally.unwritten("x")).isEqualTo(1);
        assertThat(tally.unwritten("y")).isZero();
    }

    @Test
    void forgettingALinkDropsItsUndrainedVisitsOnlyAndLaterVisitsCountAgain() {
        VisitTally tally = new VisitTally(10, agent -> false);
        tally.add("x", 1, "a", null, null);
        tally.add("x", 1, "b", null, null);
        tally.add("y", 1, "a", null, null);

        assertThat(tally.forget("x")).isEqualTo(2);
        tally.add("x", 1, "a", null, null);

        assertThat(tally.pending()).isEqualTo(2);
        assertThat(tally.unwritten("x")).isEqualTo(1);
        assertThat(tally.drain())
                .extracting(c -> c.facts().code() + "=" + c.visits())
                .containsExactlyInAnyOrder("x=1", "y=1");
    }

    @Test
    void anEntryIsTheClientsNetworkAndKeepsTheFirstAddressItSaw() throws Exception {
        VisitTally tally = new VisitTally(10, agent -> false);
        tally.add("x", 1, "a", InetAddress.getByName("81.2.69.142"), null);
        tally.add("x", 1, "a", InetAddress.getByName("81.2.69.7"), null);
        tally.add("x", 1, "a", InetAddress.getByName("81.2.70.1"), null);
        tally.add("x", 1, "a", InetAddress.getByName("2001:db8:85a3:8d3:1319:8a2e:370:7348"), null);
        tally.add("x", 1, "a", InetAddress.getByName("2001:db8:85a3:8d3::1"), null);

        assertThat(tally.drain())
                .extracting(c ->
                        c.facts().network().getHostAddress() + " " + c.address().getHostAddress() + " " + c.visits())
                .containsExactlyInAnyOrder(
                        "81.2.69.0 81.2.69.142 2",
                        "81.2.70.0 81.2.70.1 1",
                        "2001:db8:85a3:8d3:0:0:0:0 2001:db8:85a3:8d3:1319:8a2e:370:7348 2");
    }

    @Test
    void entriesShareOneStringPerAgentAndPerLinkNotTheOnesEachRequestBrought() {
        VisitTally tally = new VisitTally(10, agent -> false);
        String agent = "Mozilla/5.0 (X11; Linux x86_64)";
        tally.add(new String("x"), 1, tally.intern(new String(agent)), null, new String("news.example"));
        tally.add(new String("x"), 2, tally.intern(new String(agent)), null, new String("news.example"));
        tally.add(new String("y"), 1, tally.intern(new String(agent)), null, null);

        List<VisitTally.Facts> facts =
                tally.drain().stream().map(VisitTally.Count::facts).toList();

        assertThat(facts).hasSize(3).allSatisfy(f -> assertThat(f.agent())
                .isSameAs(facts.get(0).agent()));
        assertThat(facts)
                .filteredOn(f -> f.code().equals("x"))
                .hasSize(2)
                .allSatisfy(f -> assertThat(f.refererHost()).isEqualTo("news.example"))
                .extracting(VisitTally.Facts::code)
                .allSatisfy(code -> assertThat(code)
                        .isSameAs(facts.stream()
                                .filter(f -> f.code().equals("x"))
                                .findFirst()
                                .orElseThrow()
                                .code()));
    }

    @Test
    void aDrainRetiresWhatItTookSoTheNextVisitStartsAFreshEntry() {
        VisitTally tally = new VisitTally(10, agent -> false);
        tally.add("x", 1, "a", null, null);

        assertThat(sum(tally.drain())).isEqualTo(1);
        assertThat(tally.size()).isZero();
        tally.add("x", 1, "a", null, null);
        assertThat(tally.size()).isOne();
        assertThat(sum(tally.drain())).isEqualTo(1);
    }

    @Test
    void refererHostIsTheLowerCaseHostWithoutUserInfoPortOrTrailingDot() {
        assertThat(VisitTally.refererHost("https://News.Example.:8443/a?b#c")).isEqualTo("news.example");
        assertThat(VisitTally.refererHost("http://user:pw@host.example/x")).isEqualTo("host.example");
        assertThat(VisitTally.refererHost("http://[2001:db8::1]:80/")).isEqualTo("[2001:db8::1]");
        assertThat(VisitTally.refererHost("android-app://com.example.app")).isEqualTo("com.example.app");
        assertThat(VisitTally.refererHost("not a url")).isNull();
        assertThat(VisitTally.refererHost("https:///path")).isNull();
        assertThat(VisitTally.refererHost(null)).isNull();
    }

    private static long sum(List<VisitTally.Count> counts) {
        return counts.stream().mapToLong(VisitTally.Count::visits).sum();
    }
}
