package dev.shortgate.events;

/**
 * Where updates go: the Mercure hub, RabbitMQ, Redis pub/sub. {@link #accept} is called on the events worker; it
 * must not block: a sink keeps its own bounded buffer, sheds what does not fit and counts it.
 */
public interface UpdateSink {

    /** The sink's name, the {@code sink} tag of its meters. */
    String name();

    /** Takes one update, or drops and counts it. Never blocks, never throws. */
    void accept(Update update);
}
