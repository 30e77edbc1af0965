package dev.shortgate.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

class MercureHubTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    MercureHub hub(int max, int buffer) {
        return new MercureHub(max, buffer, Duration.ofSeconds(15), Schedulers.parallel(), registry);
    }

    static Update visit(String code) {
        return new Update(Topics.newShortUrlVisit(code), "{\"code\":\"" + code + "\"}", true);
    }

    double dropped() {
        var counter = registry.find("shortgate.events.dropped") // registered at the first drop
                .tag("sink", "mercure")
                .tag("reason", "slow_subscriber")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aSubscriberGetsOnlyTheTopicsItAskedForAndWasGranted() {
        MercureHub hub = hub(10, 16);
        var stream = hub.subscribe(List.of("https://shlink.io/new-visit/{shortCode}"), List.of("*"));
        StepVerifier.create(stream.map(event -> event.data()).take(2))
                .then(() -> {
                    hub.accept(new Update(Topics.NEW_VISIT, "{}", false));
                    hub.accept(visit("abc"));
                    hub.accept(new Update(Topics.NEW_ORPHAN_VISIT, "{}", false));
                    hub.accept(visit("xyz"));
                })
                .expectNext("{\"code\":\"abc\"}", "{\"code\":\"xyz\"}")
                .verifyComplete();
        var limited = hub.subscribe(List.of("*"), List.of(Topics.newShortUrlVisit("abc")));
        StepVerifier.create(limited.map(event -> event.data()).take(1))
                .then(() -> {
                    hub.accept(visit("xyz"));
                    hub.accept(visit("abc"));
                })
                .expectNext("{\"code\":\"abc\"}")
                .verifyComplete();
        assertThat(hub.subscribers()).isZero();
    }

    @Test
    void aSlowSubscriberIsDroppedAndCountedWithoutHoldingUpOthers() {
        MercureHub hub = hub(10, 4);
        var slow = hub.subscribe(List.of("*"), List.of("*"));
        var fast = hub.subscribe(List.of("*"), List.of("*"));
        StepVerifier.create(fast.take(10), 10)
                .then(() -> {
                    for (int i = 0; i < 10; i++) {
                        hub.accept(visit("c" + i));
                    }
                })
                .expectNextCount(10)
                .verifyComplete();
        // The slow one never asked for anything: its buffer (4) overflowed, and its stream ends at once.
        assertThat(dropped()).isEqualTo(1);
        StepVerifier.create(slow).verifyComplete();
        assertThat(hub.subscribers()).isZero();
    }

    @Test
    void streamsPastTheCapAreRefusedAndAClosedStreamFreesItsPlace() {
        MercureHub hub = hub(2, 4);
        var first = hub.subscribe(List.of("*"), List.of("*"));
        var second = hub.subscribe(List.of("*"), List.of("*"));
        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        var disposable = first.subscribe();
        second.subscribe();
        assertThat(hub.subscribe(List.of("*"), List.of("*"))).isNull();
        disposable.dispose();
        assertThat(hub.subscribe(List.of("*"), List.of("*"))).isNotNull();
        assertThat(registry.get("shortgate.events.subscriptions.refused")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void anIdleStreamGetsHeartbeats() {
        VirtualTimeScheduler time = VirtualTimeScheduler.create();
        MercureHub hub = new MercureHub(10, 4, Duration.ofSeconds(15), time, registry);
        StepVerifier.withVirtualTime(() -> hub.subscribe(List.of("*"), List.of("*")), () -> time, 10)
                .expectSubscription()
                .thenAwait(Duration.ofSeconds(31))
                .assertNext(event -> assertThat(event.comment()).isEmpty())
                .assertNext(event -> assertThat(event.comment()).isEmpty())
                .thenCancel()
                .verify();
    }

    @Test
    void theHubWantsUpdatesOnlyWhileSomeoneSubscribesHereOrOnAnotherPod() {
        MercureHub hub = hub(10, 4);
        assertThat(hub.interested()).isFalse();
        var stream = hub.subscribe(List.of("*"), List.of("*")).subscribe();
        assertThat(hub.interested()).isTrue();
        stream.dispose();
        assertThat(hub.interested()).isFalse();
        boolean[] remote = {true};
        int[] announced = {0};
        hub.fanOutTo(update -> {}, () -> remote[0], () -> announced[0]++);
        assertThat(hub.interested()).isTrue();
        remote[0] = false;
        assertThat(hub.interested()).isFalse();
        hub.subscribe(List.of("*"), List.of("*")).subscribe().dispose();
        assertThat(announced[0])
                .as("a new subscriber is announced to the other pods at once")
                .isEqualTo(1);
    }

    @Test
    void selectorsMatchTopicsTemplatesAndEverything() {
        assertThat(MercureHub.selector("*").test("https://shlink.io/new-visit")).isTrue();
        assertThat(MercureHub.selector("https://shlink.io/new-visit").test("https://shlink.io/new-visit"))
                .isTrue();
        assertThat(MercureHub.selector("https://shlink.io/new-visit").test("https://shlink.io/new-visit/a"))
                .isFalse();
        var template = MercureHub.selector("https://shlink.io/new-visit/{shortCode}");
        assertThat(template.test("https://shlink.io/new-visit/abc")).isTrue();
        assertThat(template.test("https://shlink.io/new-visit")).isFalse();
        assertThat(template.test("https://shlink.io/new-visit/a/b")).isFalse();
    }
}
