package dev.shortgate.codegen.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The pool in a real Redis hands out a group's codes in one take, each code once. */
class RedisCodePoolIT {

    /** A length the filler does not keep, so only this test adds to its set. */
    static final int LENGTH = 2;

    @RegisterExtension
    static final Pods pods = Pods.onMariaDb()
            .withRedis()
            .with("shortgate.codegen.strategy", "pool")
            // generous: on a loaded machine a take can miss the 200 ms a create waits, and count as an empty pool
            .with("shortgate.codegen.pool.timeout", "10s");

    @Test
    void aTakeOfManyHandsOutEachCodeOnceAndNoMoreThanThePoolHolds() {
        CodePool pool = pods.app().bean(CodePool.class);
        List<String> added = List.of("a1", "b2", "c3", "d4", "e5");
        pool.add(LENGTH, added).block(Duration.ofSeconds(10));

        List<String> first = pool.take(LENGTH, 3).collectList().block(Duration.ofSeconds(10));
        List<String> rest = pool.take(LENGTH, 5).collectList().block(Duration.ofSeconds(10));
        List<String> none = pool.take(LENGTH, 2).collectList().block(Duration.ofSeconds(10));

        assertThat(first).hasSize(3);
        assertThat(rest).hasSize(2);
        assertThat(none).isEmpty();
        Set<String> all = new HashSet<>(first);
        all.addAll(rest);
        assertThat(all).containsExactlyInAnyOrderElementsOf(added);
    }
}
