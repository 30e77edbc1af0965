package dev.shortgate.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinksCreated;
import dev.shortgate.visit.OrphanVisitType;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.VisitTap;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

class EventSourceTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<Update> received = new CopyOnWriteArrayList<>();
    final ExecutorService executor = Executors.newSingleThreadExecutor();
    final VisitTap.Describer describer = (ip, agent) -> new VisitTap.Describer.Description("DE", "Berlin", false);
    final ShlinkPayloads payloads = new ShlinkPayloads(
            new ShortUrls(null, null, "https://sho.rt", java.time.Duration.ofSeconds(5), key -> null),
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

    @AfterEach
    void stop() {
        executor.shutdownNow();
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
        return search.counter().count();
    }

    @Test
    void factsPastTheBufferAreDroppedAndCountedWithoutWaiting() throws Exception {
        CountDownLatch worker = new CountDownLatch(1);
        executor.submit(() -> worker.await(10, TimeUnit.SECONDS)); // the worker is busy: nothing drains
        EventSource source = new EventSource(payloads, List.of(sink), 3, Schedulers.fromExecutor(executor), registry);
        source.start();
        long start = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            source.created(new LinksCreated(List.of(link("c" + i))));
        }
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(1));
        assertThat(counter("shortgate.events.published", null)).isEqualTo(3);
        assertThat(counter("shortgate.events.dropped", "buffer_full")).isEqualTo(7);
        assertThat(source.held()).isEqualTo(3);

        worker.countDown();
        org.awaitility.Awaitility.await().until(() -> received.size() == 3);
        assertThat(received).allSatisfy(update -> assertThat(update.topic()).isEqualTo(Topics.NEW_SHORT_URL));
        assertThat(source.held()).isZero();
        source.stop();
    }

    @Test
    void aLinkOnASecondDomainIsShownWithItsBareCodeAndItsDomainsHost() {
        ShortUrls shortUrls = new ShortUrls(null, null, "https://sho.rt/", java.time.Duration.ofSeconds(5), key -> {
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
        EventSource source = new EventSource(payloads, List.of(sink), 10, Schedulers.fromExecutor(executor), registry);
        source.start();
        source.visited(new RawVisit(
                new byte[12],
                "missing",
                Instant.parse("2026-11-26T06:00:00Z"),
                InetAddress.getByName("192.0.2.1"),
                "agent",
                null,
                OrphanVisitType.INVALID_SHORT_URL,
                "a=1"));
        org.awaitility.Awaitility.await().until(() -> received.size() == 1);
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
        EventSource source = new EventSource(payloads, List.of(idle), 10, Schedulers.fromExecutor(executor), registry);
        source.start();
        source.created(new LinksCreated(List.of(link("x"))));
        assertThat(counter("shortgate.events.published", null)).isZero();
        assertThat(source.held()).isZero();
        source.stop();
    }

    @Test
    void withoutSinksNothingIsTaken() {
        EventSource source = new EventSource(payloads, List.of(), 10, Schedulers.fromExecutor(executor), registry);
        source.start();
        source.created(new LinksCreated(List.of(link("x"))));
        assertThat(counter("shortgate.events.published", null)).isZero();
        assertThat(source.held()).isZero();
        source.stop();
    }
}
