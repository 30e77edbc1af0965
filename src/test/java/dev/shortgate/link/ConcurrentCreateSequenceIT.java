package dev.shortgate.link;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ConcurrentCreateChecks} under The sequence strategy: counter blocks from the database. */
class ConcurrentCreateSequenceIT extends ConcurrentCreateChecks {

    @RegisterExtension
    static final Pods PODS = twoPods("sequence");

    @Override
    Pods pods() {
        return PODS;
    }
}
