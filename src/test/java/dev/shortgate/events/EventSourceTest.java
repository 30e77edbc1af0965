package dev.shortgate.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinksCreated;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.VisitTap;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.test.scheduler.VirtualTimeScheduler;
import tools.jackson.databind.json.JsonMapper;

class EventSourceTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<Update> received = new CopyOnWriteArrayList<>();
    final VisitTap.Describer describer = (ip, agent) -> new VisitTap.Describer.Description("DE", "Berlin", false);
    final ShlinkPayloads payloads = new ShlinkPayloads(
            new ShortUrls(null, null, null, "https://sho.rt", java.time.Duration.ofSeconds(5), key -> null),
            describer,
            JsonMapper.builder().build(),
            "https://sho.rt");

    final UpdateSink sink = new UpdateSink() {
        @Override
        public String name() {
            return "test";
        }

        @Override
        public void accept(Update update) {
            received.add(update);
        }
    };

    final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    final Ticker ticker = () -> time.now(TimeUnit.NANOSECONDS);
    static final Duration FLUSH = Duration.ofMillis(50);

    @AfterEach
    void stop() {
        time.dispose();
    }

    EventSource source(List<UpdateSink> sinks, int capacity, int maxRate) {
        EventSource source = new EventSource(payloads, sinks, capacity, maxRate, FLUSH, ticker, time, registry);
        source.start();
        return source;
    }

    static Link link(String code) {
        return new Link(
                code, "https://example.com/" + code, 302, false, Instant.EPOCH, null, null, false, false, null, null);
    }

    double counter(String name, String reason) {
        var search = registry.find(name).tag("sink", "source");
        if (reason != null) {
            search = search.tag("reason", reason);
        }
        return search.counter() == null ? 0 : search.counter().count(); // a drop counter appears at its first drop
    }

    @Test
    void factsPastTheBufferAreDroppedAndCountedWithoutWaiting() {
        EventSource source = source(List.of(sink), 3, 0);
        for (int i = 0; i < 10; i++) {
            source.created(new LinksCreated(List.of(link("c" + i))));
        }
        assertThat(counter("shortgate.events.published", null)).isEqualTo(3);
        assertThat(counter("shortgate.events.dropped", "buffer_full")).isEqualTo(7);
        assertThat(source.held()).isEqualTo(3);

        time.advanceTimeBy(FLUSH);
        assertThat(received).hasSize(3);
        assertThat(received).allSatisfy(update -> assertThat(update.topic()).isEqualTo(Topics.NEW_SHORT_URL));
        assertThat(source.held()).isZero();
        source.stop();
    }

    @Test
    void factsPastTheMaxRateAreDroppedAndCountedAsRateUntilTheBucketRefills() {
        EventSource source = source(List.of(sink), 1000, 5);
        for (int i = 0; i < 8; i++) {
            source.created(new LinksCreated(List.of(link("c" + i))));
        }
        assertThat(counter("shortgate.events.published", null)).isEqualTo(5);
        assertThat(counter("shortgate.events.dropped", "rate")).isEqualTo(3);

        time.advanceTimeBy(Duration.ofSeconds(1));
        for (int i = 0; i < 8; i++) {
            source.created(new LinksCreated(List.of(link("d" + i))));
        }
        assertThat(counter("shortgate.events.published", null)).isEqualTo(10);
        assertThat(counter("shortgate.events.dropped", "rate")).isEqualTo(6);
        time.advanceTimeBy(FLUSH);
        assertThat(received).hasSize(10);
        source.stop();
    }

    @Test
    void withoutAMaxRateEveryFactThatFitsIsTaken() {
        EventSource source = source(List.of(sink), 100_000, 0);
        for (int i = 0; i < 5000; i++) {
            source.created(new LinksCreated(List.of(link("c" + i))));
        }
        assertThat(counter("shortgate.events.published", null)).isEqualTo(5000);
        assertThat(counter("shortgate.events.dropped", "rate")).isZero();
        source.stop();
    }

    @Test
    void aFactWaitsTheFlushIntervalForOthersAndTheyLeaveAsOneBatch() {
        EventSource source = source(List.of(sink), 1000, 0);
        source.created(new LinksCreated(List.of(link("a"))));
        time.advanceTimeBy(FLUSH.minusMillis(1));
        source.created(new LinksCreated(List.of(link("b"), link("c"))));
        assertThat(received).isEmpty();

        time.advanceTimeBy(Duration.ofMillis(1));
        assertThat(received).hasSize(3);
        assertThat(source.held()).isZero();
        source.stop();
    }

    @Test
    void aBacklogLeavesInBatchesOfAtMostTheMaxBatchWithoutWaitingBetweenFullOnes() {
        EventSource source = source(List.of(sink), 10_000, 0);
        for (int i = 0; i < EventSource.MAX_BATCH * 2 + 10; i++) {
            source.created(new LinksCreated(List.of(link("c" + i))));
        }
        time.advanceTimeBy(FLUSH);
        // two full batches at once; the 10 left over wait a flush interval to fill
        assertThat(received).hasSize(EventSource.MAX_BATCH * 2);
        assertThat(source.held()).isEqualTo(10);
        time.advanceTimeBy(FLUSH);
        assertThat(received).hasSize(EventSource.MAX_BATCH * 2 + 10);
        assertThat(source.held()).isZero();
        source.stop();
    }

    @Test
    void aSinkThatIsNotInterestedIsSkipped() {
        List<Update> idleReceived = new CopyOnWriteArrayList<>();
        UpdateSink idle = new UpdateSink() {
            @Override
            public String name() {
                return "idle";
            }

            @Override
            public boolean interested() {
                return false;
            }

            @Override
            public void accept(Update update) {
                idleReceived.add(update);
            }
        };
        EventSource source = source(List.of(idle, sink), 10, 0);
        source.created(new LinksCreated(List.of(link("x"))));
        time.advanceTimeBy(FLUSH);
        assertThat(received).hasSize(1);
        assertThat(idleReceived).isEmpty();
        source.stop();
    }

    @Test
    void stoppingDropsAndCountsWhatIsHeld() {
        EventSource source = source(List.of(sink), 10, 0);
        source.created(new LinksCreated(List.of(link("x"), link("y"))));
        source.stop();
        time.advanceTimeBy(FLUSH);
        assertThat(received).isEmpty();
        assertThat(counter("shortgate.events.dropped", "shutdown")).isEqualTo(2);
        assertThat(source.held()).isZero();
        source.created(new LinksCreated(List.of(link("z"))));
        assertThat(counter("shortgate.events.published", null)).isEqualTo(2);
    }

    @Test
    void aLinkOnASecondDomainIsShownWithItsBareCodeAndItsDomainsHost() {
        ShortUrls shortUrls =
                new ShortUrls(null, null, null, "https://sho.rt/", java.time.Duration.ofSeconds(5), key -> {
                    assertThat(key).isEqualTo("3~abc");
                    return "two.test";
                });
        java.util.Map<String, Object> shown = shortUrls.ofNewLink(new dev.shortgate.link.Link(
                "3~abc", "https://example.com/", 302, true, Instant.EPOCH, null, null, false, false, null, null));
        assertThat(shown)
                .containsEntry("shortCode", "abc")
                .containsEntry("domain", "two.test")
                .containsEntry("shortUrl", "https://two.test/abc");
        assertThat(shortUrls.ofNewLink(new dev.shortgate.link.Link(
                        "abc", "https://example.com/", 302, true, Instant.EPOCH, null, null, false, false, null, null)))
                .containsEntry("shortCode", "abc")
                .containsEntry("domain", null)
                .containsEntry("shortUrl", "https://sho.rt/abc");
    }

    @Test
    void anOrphanVisitIsOneUpdateWithItsTypeAndLocation() throws Exception {
        EventSource source = source(List.of(sink), 10, 0);
        source.visited(new RawVisit(
                new byte[12],
                "missing",
                Instant.parse("2026-11-26T06:00:00Z"),
                InetAddress.getByName("192.0.2.1"),
                "agent",
                null,
                OrphanVisitType.INVALID_SHORT_URL,
                "a=1"));
        time.advanceTimeBy(FLUSH);
        assertThat(received).hasSize(1);
        Update update = received.get(0);
        assertThat(update.topic()).isEqualTo(Topics.NEW_ORPHAN_VISIT);
        assertThat(update.json())
                .contains(
                        "\"visitedUrl\":\"https://sho.rt/missing?a=1\"",
                        "\"type\":\"invalid_short_url\"",
                        "\"countryCode\":\"DE\"",
                        "\"cityName\":\"Berlin\"",
                        "\"date\":\"2026-11-26T06:00:00+00:00\"",
                        "\"referer\":\"\"");
        source.stop();
    }

    static RawVisit visitOf(String code, String ip) throws Exception {
        return new RawVisit(
                new byte[12],
                code,
                Instant.parse("2026-11-26T06:00:00Z"),
                InetAddress.getByName(ip),
                "agent",
                null,
                OrphanVisitType.INVALID_SHORT_URL,
                null);
    }

    @Test
    void aVisitWhoseCodeFailsTheStoresCheckIsDroppedAloneAndCounted() throws Exception {
        EventSource source = source(List.of(sink), 10, 0);
        // a link's visit with a code no statement may name: it must not fail the batch (nor reach the store)
        source.visited(new RawVisit(
                new byte[12], "bad code'", Instant.EPOCH, InetAddress.getByName("192.0.2.1"), "a", null, null, null));
        source.visited(visitOf("first", "192.0.2.2"));
        source.visited(visitOf("second", "192.0.2.3"));
        time.advanceTimeBy(FLUSH);
        assertThat(received).hasSize(2);
        assertThat(received.get(0).json()).contains("https://sho.rt/first");
        assertThat(received.get(1).json()).contains("https://sho.rt/second");
        assertThat(counter("shortgate.events.dropped", "render_failed")).isEqualTo(1);
        assertThat(source.held()).isZero();
        source.stop();
    }

    @Test
    void aVisitWhosePayloadCannotBeWrittenIsDroppedAloneAndCounted() throws Exception {
        VisitTap.Describer failing = (ip, agent) -> {
            if (ip.getHostAddress().equals("192.0.2.66")) {
                throw new IllegalStateException("no description");
            }
            return new VisitTap.Describer.Description(null, null, false);
        };
        ShlinkPayloads failingPayloads = new ShlinkPayloads(
                new ShortUrls(null, null, null, "https://sho.rt", Duration.ofSeconds(5), key -> null),
                failing,
                JsonMapper.builder().build(),
                "https://sho.rt");
        EventSource source = new EventSource(failingPayloads, List.of(sink), 10, 0, FLUSH, ticker, time, registry);
        source.start();
        source.visited(visitOf("one", "192.0.2.1"));
        source.visited(visitOf("two", "192.0.2.66"));
        source.visited(visitOf("three", "192.0.2.3"));
        time.advanceTimeBy(FLUSH);
        assertThat(received)
                .extracting(Update::json)
                .hasSize(2)
                .anySatisfy(json -> assertThat(json).contains("/one"))
                .anySatisfy(json -> assertThat(json).contains("/three"));
        assertThat(counter("shortgate.events.dropped", "render_failed")).isEqualTo(1);
        source.stop();
    }

    @Test
    void whileNoSinkIsInterestedNothingIsTaken() {
        UpdateSink idle = new UpdateSink() {
            @Override
            public String name() {
                return "idle";
            }

            @Override
            public boolean interested() {
                return false;
            }

            @Override
            public void accept(Update update) {
                received.add(update);
            }
        };
        EventSource source = source(List.of(idle), 10, 0);
        source.created(new LinksCreated(List.of(link("x"))));
        assertThat(counter("shortgate.events.published", null)).isZero();
        assertThat(source.held()).isZero();
        source.stop();
    }

    @Test
    void withoutSinksNothingIsTaken() {
        EventSource source = source(List.of(), 10, 0);
        source.created(new LinksCreated(List.of(link("x"))));
        assertThat(counter("shortgate.events.published", null)).isZero();
        assertThat(source.held()).isZero();
        source.stop();
    }
}
