package dev.shortgate.events;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The meters every sink shares, tagged by {@code sink} (and {@code reason} for drops), all bounded:
 * {@code shortgate.events.published} (taken into the sink's buffer), {@code shortgate.events.confirmed} (delivered:
 * confirmed by the broker, accepted by Redis, written to a subscriber's stream) and {@code shortgate.events.dropped}.
 */
public final class EventMeters {

    private EventMeters() {}

    public static Counter published(MeterRegistry registry, String sink) {
        return Counter.builder("shortgate.events.published")
                .tag("sink", sink)
                .description("Events taken into a sink's buffer")
                .register(registry);
    }

    public static Counter confirmed(MeterRegistry registry, String sink) {
        return Counter.builder("shortgate.events.confirmed")
                .tag("sink", sink)
                .description("Events delivered: confirmed by the broker, accepted by Redis or sent to a subscriber")
                .register(registry);
    }

    public static Counter dropped(MeterRegistry registry, String sink, String reason) {
        return Counter.builder("shortgate.events.dropped")
                .tag("sink", sink)
                .tag("reason", reason)
                .description("Events shed: a full buffer, a broker that failed or did not confirm, a slow subscriber")
                .register(registry);
    }
}
