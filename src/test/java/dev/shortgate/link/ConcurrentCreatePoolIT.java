package dev.shortgate.link;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ConcurrentCreateChecks} under the pool strategy, its pool in Redis (SPOP). */
class ConcurrentCreatePoolIT extends ConcurrentCreateChecks {

    @RegisterExtension
    static final Pods PODS = twoPods("pool").withRedis();

    @Override
    Pods pods() {
        return PODS;
    }
}
