package dev.shortgate.link.create;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.shortgate.link.LinkRequests.Prepared;
import dev.shortgate.link.LinkService.Created;
import dev.shortgate.link.LinkService.ItemResult;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * Lets concurrent single creates of generated links share their round trips, as a database's group commit does. At
 * most {@link #GROUPS_AT_ONCE} groups are written at once ({@link GroupCreator}: three statements a group); a create
 * that arrives while they are busy waits, and the next group takes every create waiting then, up to
 * {@link #MAX_GROUP}. A create that arrives while fewer groups are busy starts at once, alone: nothing waits for a
 * timer, so a lone create is as fast as before and a busy pod writes fewer, larger statements. Each create still
 * answers as it would alone (find-if-exists, its own problem, 201 or 200); a create cancelled while it waits (its
 * deadline passed, its client left) is not written.
 *
 * <p>Hand-written rather than Reactor's {@code bufferTimeout}: that operator closes a buffer when it is full or a
 * timer fires, so under light load every create would wait for the timer; here the writer's own progress closes the
 * group.
 */
@Component
public class CreateQueue {

    /** Groups written at once: enough to keep the database busy, few enough that the groups grow under load. */
    static final int GROUPS_AT_ONCE = 4;

    /** The most creates in one group (one multi-row statement). */
    static final int MAX_GROUP = 64;

    /** How many creates of a group whose candidate was taken go through single creates at once. */
    private static final int CONFLICT_CONCURRENCY = 8;

    private final Function<Map<Integer, Prepared>, Flux<ItemResult>> writer;
    private final Queue<Waiting> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger writing = new AtomicInteger();
    private final DistributionSummary groupSizes;

    @Autowired
    CreateQueue(GroupCreator groups, MeterRegistry registry) {
        this(wanted -> groups.create(wanted, CONFLICT_CONCURRENCY), registry);
    }

    /** @param writer writes one group: one result per item, or an error that fails every item of the group */
    CreateQueue(Function<Map<Integer, Prepared>, Flux<ItemResult>> writer, MeterRegistry registry) {
        this.writer = writer;
        this.groupSizes = DistributionSummary.builder("shortgate.links.create.group.size")
                .description("Single creates written together in one group")
                .baseUnit("creates")
                .register(registry);
    }

    /** Creates a generated link (never an alias) as {@link LinkCreator#createGenerated} would, in a group. */
    public Mono<Created> create(Prepared prepared) {
        return Mono.create(sink -> {
            Waiting create = new Waiting(prepared, sink);
            sink.onCancel(create::cancel);
            waiting.offer(create);
            drain();
        });
    }

    /**
     * Starts groups while fewer than {@link #GROUPS_AT_ONCE} are written and creates wait. A create offered while
     * every slot is taken is picked up by the group that frees a slot: it drains after it gives its slot back.
     */
    private void drain() {
        while (!waiting.isEmpty()) {
            int busy = writing.get();
            if (busy >= GROUPS_AT_ONCE) {
                return;
            }
            if (!writing.compareAndSet(busy, busy + 1)) {
                continue;
            }
            List<Waiting> group = new ArrayList<>();
            for (Waiting next; group.size() < MAX_GROUP && (next = waiting.poll()) != null; ) {
                if (!next.cancelled) {
                    group.add(next);
                }
            }
            if (group.isEmpty()) {
                writing.decrementAndGet();
                continue;
            }
            write(group);
        }
    }

    private void write(List<Waiting> group) {
        groupSizes.record(group.size());
        Map<Integer, Prepared> wanted = new LinkedHashMap<>();
        for (int i = 0; i < group.size(); i++) {
            wanted.put(i, group.get(i).prepared);
        }
        Flux.defer(() -> writer.apply(wanted))
                .doFinally(signal -> {
                    writing.decrementAndGet();
                    drain();
                })
                .subscribe(
                        result -> group.get(result.index()).answer(result),
                        error -> group.forEach(create -> create.fail(error)),
                        // only a create left unanswered gets the exception: filling in a stack trace per create
                        // of every group cost 1% of a create's CPU
                        () -> group.forEach(create -> create.failIfUnanswered(
                                () -> new IllegalStateException("A group create gave no result for an item"))));
    }

    /** A create waiting for its group, and answered once: by its result, or by its group's failure. */
    private static final class Waiting {

        private final Prepared prepared;
        private final MonoSink<Created> sink;
        private final AtomicInteger answered = new AtomicInteger();
        private volatile boolean cancelled;

        Waiting(Prepared prepared, MonoSink<Created> sink) {
            this.prepared = prepared;
            this.sink = sink;
        }

        void cancel() {
            cancelled = true;
        }

        void answer(ItemResult result) {
            if (answered.compareAndSet(0, 1)) {
                if (result.problem() != null) {
                    sink.error(result.problem());
                } else {
                    sink.success(result.created());
                }
            }
        }

        void fail(Throwable error) {
            if (answered.compareAndSet(0, 1)) {
                sink.error(error);
            }
        }

        void failIfUnanswered(Supplier<Throwable> error) {
            if (answered.get() == 0 && answered.compareAndSet(0, 1)) {
                sink.error(error.get());
            }
        }
    }
}
