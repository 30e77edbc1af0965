package dev.shortgate.events;

/**
 * One message on one topic, as Shlink's {@code Update}: the topic and its JSON payload.
 *
 * @param topic   one of {@link Topics}
 * @param json    the payload, as JSON text
 * @param perCode whether {@link #topic} is a per-code topic ({@code new-visit/{shortCode}}), which some sinks skip
 */
public record Update(String topic, String json, boolean perCode) {}
