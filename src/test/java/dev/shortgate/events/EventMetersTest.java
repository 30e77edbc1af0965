package dev.shortgate.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class EventMetersTest {

    @Test
    void aDropCounterIsRegisteredAtItsFirstDropAndSharedAfterIt() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Counter dropped = EventMeters.dropped(registry, "source", "rate");

        assertThat(registry.find("shortgate.events.dropped").counters()).isEmpty();
        assertThat(dropped.count()).isZero();
        assertThat(dropped.getId().getName()).isEqualTo("shortgate.events.dropped");
        assertThat(dropped.getId().getTag("reason")).isEqualTo("rate");

        Counter other = EventMeters.dropped(registry, "source", "rate"); // another holder of the same sink and reason
        dropped.increment();
        dropped.increment();
        assertThat(other.count()).isEqualTo(2); // counted before its own first drop
        other.increment();

        assertThat(registry.get("shortgate.events.dropped")
                        .tag("sink", "source")
                        .tag("reason", "rate")
                        .counter()
                        .count())
                .isEqualTo(3);
        assertThat(dropped.count()).isEqualTo(3);
        assertThat(registry.find("shortgate.events.dropped").counters()).hasSize(1);
    }
}
