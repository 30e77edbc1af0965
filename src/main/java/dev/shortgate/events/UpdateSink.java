package dev.shortgate.events;

import java.util.List;

/**
 * Where updates go: the Mercure hub, RabbitMQ, Redis pub/sub. {@link #accept} is called on the events worker; it
 * must not block: a sink keeps its own bounded buffer, sheds what does not fit and counts it.
 */
public interface UpdateSink {

    /** The sink's name, the {@code sink} tag of its meters. */
    String name();

    /**
     * Whether the sink wants updates now; called on the event loop for every visit, so it must be a field read. A
     * broker always does; the Mercure hub only while someone subscribes, here or on another pod.
     */
    default boolean interested() {
        return true;
    }

    /** Takes one update, or drops and counts it. Never blocks, never throws. */
    void accept(Update update);

    /** Takes a batch of updates, in order; a sink that can send them together does. Never blocks, never throws. */
    default void acceptAll(List<Update> updates) {
        for (Update update : updates) {
            accept(update);
        }
    }
}
