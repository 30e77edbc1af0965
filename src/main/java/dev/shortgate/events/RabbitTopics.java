package dev.shortgate.events;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpTimeoutException;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Shlink's RabbitMQ integration ({@code shortgate.events.rabbitmq.enabled}), as shlink-common's
 * {@code RabbitMqPublishingHelper}: for each topic a durable direct exchange and a durable queue, both named after
 * the topic and bound together, and persistent JSON messages. Per-code topics only with {@code per-code-topic}.
 *
 * <p>Updates wait in a bounded buffer ({@code buffer-capacity}; one that finds it full is dropped and counted) and
 * leave in batches of up to {@code batch-size} (or {@code flush-interval} of waiting), one batch at a time, on one
 * channel of Spring AMQP's caching connection factory ({@code spring.rabbitmq.*}) in confirm mode: a batch is
 * published, then its confirms awaited for up to {@code confirm-timeout}. A confirmed batch counts as confirmed; one
 * the broker refuses, does not confirm in time or cannot take (down, unreachable) counts as dropped, and is not
 * retried: the next batch tries again, on a new connection if the old one died, and declares the topics again.
 * This runs on a thread of its own; nothing on the redirect path waits for it.
 */
final class RabbitTopics implements UpdateSink, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RabbitTopics.class);

    private static final AMQP.BasicProperties PERSISTENT_JSON = new AMQP.BasicProperties.Builder()
            .contentType("application/json")
            .contentEncoding("UTF-8")
            .deliveryMode(2)
            .build();

    private final RabbitTemplate rabbit;
    private final EventsProperties.Rabbitmq properties;
    private final Scheduler worker;
    private final Scheduler timer;
    private final Set<String> declared = ConcurrentHashMap.newKeySet();
    private final AtomicInteger held = new AtomicInteger();
    private final Counter published;
    private final Counter confirmed;
    private final Counter droppedFull;
    private final Counter droppedNotConfirmed;
    private final Counter droppedFailed;
    private final Counter droppedShutdown;
    private volatile FluxSink<Update> sink;
    private volatile boolean running;
    private Disposable pipeline;

    /**
     * @param worker a thread of its own: publishing and waiting for confirms block it
     * @param timer  closes batches after {@code flush-interval}
     */
    RabbitTopics(
            RabbitTemplate rabbit,
            EventsProperties.Rabbitmq properties,
            Scheduler worker,
            Scheduler timer,
            MeterRegistry registry) {
        this.rabbit = rabbit;
        this.properties = properties;
        this.worker = worker;
        this.timer = timer;
        this.published = EventMeters.published(registry, name());
        this.confirmed = EventMeters.confirmed(registry, name());
        this.droppedFull = EventMeters.dropped(registry, name(), "buffer_full");
        this.droppedNotConfirmed = EventMeters.dropped(registry, name(), "not_confirmed");
        this.droppedFailed = EventMeters.dropped(registry, name(), "publish_failed");
        this.droppedShutdown = EventMeters.dropped(registry, name(), "shutdown");
        Gauge.builder("shortgate.events.buffered", held, AtomicInteger::get)
                .tag("sink", name())
                .description("Events held in a buffer")
                .register(registry);
    }

    @Override
    public String name() {
        return "rabbitmq";
    }

    @Override
    public void accept(Update update) {
        if (update.perCode() && !properties.perCodeTopic()) {
            return;
        }
        FluxSink<Update> target = sink;
        if (!running || target == null) {
            droppedShutdown.increment();
            return;
        }
        if (held.incrementAndGet() > properties.bufferCapacity()) {
            held.decrementAndGet();
            droppedFull.increment();
            return;
        }
        published.increment();
        target.next(update);
    }

    /** Publishes one batch and waits for its confirms; counts the outcome, never fails. */
    private void publish(List<Update> batch) {
        try {
            rabbit.execute(channel -> {
                channel.confirmSelect();
                Set<String> topics = new LinkedHashSet<>();
                for (Update update : batch) {
                    topics.add(update.topic());
                }
                for (String topic : topics) {
                    declare(channel, topic);
                }
                for (Update update : batch) {
                    channel.basicPublish(
                            update.topic(), "", PERSISTENT_JSON, update.json().getBytes(StandardCharsets.UTF_8));
                }
                channel.waitForConfirmsOrDie(properties.confirmTimeout().toMillis());
                return null;
            });
            confirmed.increment(batch.size());
        } catch (RuntimeException e) {
            declared.clear();
            boolean unconfirmed = e instanceof AmqpTimeoutException
                    || e.getCause() instanceof TimeoutException
                    || String.valueOf(e.getMessage()).contains("nack");
            (unconfirmed ? droppedNotConfirmed : droppedFailed).increment(batch.size());
            log.debug("Dropped {} events: RabbitMQ did not take them: {}", batch.size(), e.toString());
        } finally {
            held.addAndGet(-batch.size());
        }
    }

    /** Shlink's declarations, made once per topic and connection (again after any failure). */
    private void declare(Channel channel, String topic) throws java.io.IOException {
        if (declared.contains(topic)) {
            return;
        }
        channel.exchangeDeclare(topic, "direct", true, false, null);
        channel.queueDeclare(topic, true, false, false, null);
        channel.queueBind(topic, topic, "");
        declared.add(topic);
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        Flux<Update> updates = Flux.create(created -> sink = created, FluxSink.OverflowStrategy.BUFFER);
        pipeline = updates.bufferTimeout(properties.batchSize(), properties.flushInterval(), timer, true)
                .concatMap(batch -> Mono.fromRunnable(() -> publish(batch)).subscribeOn(worker), 1)
                .subscribe(null, error -> log.error("RabbitMQ event pipeline stopped on an unexpected error", error));
        running = true;
    }

    /** Stops taking updates, publishes what is held for up to a confirm timeout, and counts the rest as dropped. */
    @Override
    public void stop() {
        FluxSink<Update> target;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            target = sink;
        }
        target.complete();
        long deadline = System.nanoTime() + properties.confirmTimeout().toNanos();
        while (held.get() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        droppedShutdown.increment(Math.max(0, held.getAndSet(0)));
        pipeline.dispose();
        worker.dispose();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Updates held now: buffered, batched or being published. */
    int held() {
        return held.get();
    }
}
