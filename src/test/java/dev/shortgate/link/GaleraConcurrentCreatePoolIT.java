package dev.shortgate.link;

import dev.shortgate.support.Conflicts;
import dev.shortgate.support.Pods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ConcurrentCreateChecks} under the pool strategy on a 3-node Galera cluster, each pod on a node of its own:
 * two pods taking one pooled code on two nodes at once: the one certified second deletes nothing on retry.
 */
class GaleraConcurrentCreatePoolIT extends ConcurrentCreateChecks {

    @RegisterExtension
    static final Pods PODS = twoPods(Pods.onGalera(), "pool");

    @Override
    Pods pods() {
        return PODS;
    }

    @AfterAll
    static void report() {
        System.out.println("[galera] pool: pod A " + Conflicts.of(PODS.a()) + ", pod B " + Conflicts.of(PODS.b()));
    }
}
