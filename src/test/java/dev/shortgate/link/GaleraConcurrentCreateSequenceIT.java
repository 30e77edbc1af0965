package dev.shortgate.link;

import dev.shortgate.support.Conflicts;
import dev.shortgate.support.Pods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ConcurrentCreateChecks} under the sequence strategy on a 3-node Galera cluster, each pod on a node of its own:
 * two pods moving the counter on two nodes at once lose at COMMIT (1213) and read it again.
 */
class GaleraConcurrentCreateSequenceIT extends ConcurrentCreateChecks {

    @RegisterExtension
    static final Pods PODS = twoPods(Pods.onGalera(), "sequence");

    @Override
    Pods pods() {
        return PODS;
    }

    @AfterAll
    static void report() {
        System.out.println("[galera] sequence: pod A " + Conflicts.of(PODS.a()) + ", pod B " + Conflicts.of(PODS.b()));
    }
}
