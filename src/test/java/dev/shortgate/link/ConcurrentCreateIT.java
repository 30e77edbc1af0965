package dev.shortgate.link;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ConcurrentCreateChecks} under The hash strategy (the default). */
class ConcurrentCreateIT extends ConcurrentCreateChecks {

    @RegisterExtension
    static final Pods PODS = twoPods("hash");

    @Override
    Pods pods() {
        return PODS;
    }
}
