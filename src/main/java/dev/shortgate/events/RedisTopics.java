package dev.shortgate.events;

import java.util.ArrayList;
import java.util.List;

/**
 * Shlink's Redis pub/sub integration ({@code shortgate.events.redis.enabled}): each update is published on the
 * channel named after its topic, its payload as JSON, as Shlink's {@code RedisPublishingHelper} does. The per-code
 * topic is published only when {@code per-code-topic} is on.
 */
final class RedisTopics implements UpdateSink {

    private final RedisChannels channels;
    private final boolean perCode;

    RedisTopics(RedisChannels channels, boolean perCode) {
        this.channels = channels;
        this.perCode = perCode;
    }

    @Override
    public String name() {
        return "redis";
    }

    /** A batch of updates, published together ({@link RedisChannels#publishAll}). */
    @Override
    public void acceptAll(List<Update> updates) {
        List<String> topics = new ArrayList<>(updates.size());
        List<String> payloads = new ArrayList<>(updates.size());
        for (Update update : updates) {
            if (!update.perCode() || perCode) {
                topics.add(update.topic());
                payloads.add(update.json());
            }
        }
        channels.publishAll(topics, payloads);
    }

    @Override
    public void accept(Update update) {
        if (update.perCode() && !perCode) {
            return;
        }
        channels.publish(update.topic(), update.json());
    }
}
