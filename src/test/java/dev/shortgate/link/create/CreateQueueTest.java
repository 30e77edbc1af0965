package dev.shortgate.link.create;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRequests.Prepared;
import dev.shortgate.link.LinkService.Created;
import dev.shortgate.link.LinkService.ItemResult;
import dev.shortgate.system.problem.Problem;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

class CreateQueueTest {

    /** A writer whose groups finish when the test says so; it records what each group held. */
    private final List<Map<Integer, Prepared>> groups = new ArrayList<>();

    private final List<Sinks.Many<ItemResult>> open = new ArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CreateQueue queue = new CreateQueue(
            wanted -> {
                groups.add(wanted);
                Sinks.Many<ItemResult> results = Sinks.many().unicast().onBackpressureBuffer();
                open.add(results);
                return results.asFlux();
            },
            registry);

    @Test
    void aLoneCreateIsWrittenAtOnceInAGroupOfItsOwn() {
        AtomicReference<Created> answer = new AtomicReference<>();
        queue.create(prepared("https://example.com/a")).subscribe(answer::set);

        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).values()).extracting(p -> p.link().url()).containsExactly("https://example.com/a");

        finish(0, 0, "https://example.com/a");
        assertThat(answer.get().link().code()).isEqualTo("c0");
        assertThat(answer.get().created()).isTrue();
    }

    @Test
    void createsThatArriveWhileEveryGroupIsBusyAreWrittenTogetherInTheNextGroup() {
        for (int i = 0; i < CreateQueue.GROUPS_AT_ONCE; i++) {
            queue.create(prepared("https://example.com/busy" + i)).subscribe();
        }
        List<Created> answers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            queue.create(prepared("https://example.com/waiting" + i)).subscribe(answers::add);
        }
        assertThat(groups).hasSize(CreateQueue.GROUPS_AT_ONCE); // the ten wait

        finish(0, 0, "https://example.com/busy0");

        assertThat(groups).hasSize(CreateQueue.GROUPS_AT_ONCE + 1);
        Map<Integer, Prepared> together = groups.get(CreateQueue.GROUPS_AT_ONCE);
        assertThat(together).hasSize(10);
        for (int i = 0; i < 10; i++) {
            open.get(CreateQueue.GROUPS_AT_ONCE).tryEmitNext(made(i, together.get(i)));
        }
        open.get(CreateQueue.GROUPS_AT_ONCE).tryEmitComplete();
        assertThat(answers)
                .extracting(created -> created.link().url())
                .containsExactlyInAnyOrder(
                        together.values().stream().map(p -> p.link().url()).toArray(String[]::new));
        assertThat(registry.summary("shortgate.links.create.group.size").max()).isEqualTo(10);
    }

    @Test
    void noGroupHoldsMoreThanTheLargestGroup() {
        for (int i = 0; i < CreateQueue.GROUPS_AT_ONCE; i++) {
            queue.create(prepared("https://example.com/busy" + i)).subscribe();
        }
        for (int i = 0; i < CreateQueue.MAX_GROUP + 5; i++) {
            queue.create(prepared("https://example.com/w" + i)).subscribe();
        }

        finish(0, 0, "https://example.com/busy0");
        finish(1, 0, "https://example.com/busy1");

        assertThat(groups.get(CreateQueue.GROUPS_AT_ONCE)).hasSize(CreateQueue.MAX_GROUP);
        assertThat(groups.get(CreateQueue.GROUPS_AT_ONCE + 1)).hasSize(5);
    }

    @Test
    void aCreateCancelledWhileItWaitsIsNotWritten() {
        for (int i = 0; i < CreateQueue.GROUPS_AT_ONCE; i++) {
            queue.create(prepared("https://example.com/busy" + i)).subscribe();
        }
        Disposable gone = queue.create(prepared("https://example.com/gone")).subscribe();
        queue.create(prepared("https://example.com/stays")).subscribe();
        gone.dispose();

        finish(0, 0, "https://example.com/busy0");

        assertThat(groups.get(CreateQueue.GROUPS_AT_ONCE).values())
                .extracting(p -> p.link().url())
                .containsExactly("https://example.com/stays");
    }

    @Test
    void aProblemAnswersOnlyItsOwnCreateAndAFailedGroupFailsEachOfItsCreates() {
        for (int i = 0; i < CreateQueue.GROUPS_AT_ONCE; i++) {
            queue.create(prepared("https://example.com/busy" + i)).subscribe();
        }
        var refused = queue.create(prepared("https://example.com/refused"));
        var fine = queue.create(prepared("https://example.com/fine"));
        List<Throwable> errors = new ArrayList<>();
        List<Created> answers = new ArrayList<>();
        refused.subscribe(answers::add, errors::add);
        fine.subscribe(answers::add, errors::add);
        finish(0, 0, "https://example.com/busy0");
        Sinks.Many<ItemResult> together = open.get(CreateQueue.GROUPS_AT_ONCE);
        together.tryEmitNext(ItemResult.failed(0, Problem.CODE_SPACE_EXHAUSTED.toException("full")));
        together.tryEmitNext(made(1, groups.get(CreateQueue.GROUPS_AT_ONCE).get(1)));
        together.tryEmitComplete();
        assertThat(errors).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("full"));
        assertThat(answers).singleElement().extracting(c -> c.link().url()).isEqualTo("https://example.com/fine");

        StepVerifier.create(queue.create(prepared("https://example.com/down")))
                .then(() -> open.get(open.size() - 1).tryEmitError(new IllegalStateException("database down")))
                .expectErrorMessage("database down")
                .verify();
    }

    private void finish(int group, int index, String url) {
        open.get(group).tryEmitNext(made(index, prepared(url)));
        open.get(group).tryEmitComplete();
    }

    private static ItemResult made(int index, Prepared prepared) {
        return ItemResult.of(index, new Created(prepared.link().withCode("c" + index), true));
    }

    private static Prepared prepared(String url) {
        Link link = new Link(null, url, 302, false, Instant.EPOCH, null, null, false, false, null, null);
        return new Prepared(link, 7);
    }
}
