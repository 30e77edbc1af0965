package dev.shortgate.events;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

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

    /**
     * The drops of one sink for one reason, registered with the registry at the first drop: a pod whose events never
     * drop exports no series for them (seven per pod otherwise, of the 300 a scrape may hold; issue 28).
     */
    public static Counter dropped(MeterRegistry registry, String sink, String reason) {
        String description = "Events shed: a full buffer, a broker that failed or did not confirm, a slow subscriber";
        Tags tags = Tags.of("sink", sink, "reason", reason);
        return new OnFirstIncrement(
                registry,
                Counter.builder("shortgate.events.dropped").tags(tags).description(description),
                new Meter.Id("shortgate.events.dropped", tags, null, description, Meter.Type.COUNTER));
    }

    /** A counter that registers itself with the registry when it is first incremented. */
    private static final class OnFirstIncrement implements Counter {

        private final MeterRegistry registry;
        private final Counter.Builder builder;
        private final Meter.Id id;
        private volatile Counter registered;

        OnFirstIncrement(MeterRegistry registry, Counter.Builder builder, Meter.Id id) {
            this.registry = registry;
            this.builder = builder;
            this.id = id;
        }

        @Override
        public void increment(double amount) {
            Counter counter = registered;
            if (counter == null) {
                counter = builder.register(registry); // idempotent: racing first drops get the same counter
                registered = counter;
            }
            counter.increment(amount);
        }

        /** The drops counted so far, by this holder or another of the same sink and reason; 0 before the first. */
        @Override
        public double count() {
            Counter counter = registered;
            if (counter == null) {
                counter =
                        registry.find(id.getName()).tags(id.getTagsAsIterable()).counter();
            }
            return counter == null ? 0 : counter.count();
        }

        @Override
        public Meter.Id getId() {
            return id;
        }
    }
}
