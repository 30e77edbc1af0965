package dev.shortgate.link;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ConcurrentCreateChecks} under the hash strategy, with links split over 62 tables. */
class ConcurrentCreateSplitIT extends ConcurrentCreateChecks {

    @RegisterExtension
    static final Pods PODS = twoPods("hash").with("shortgate.storage.table-split", "first-char");

    @Override
    Pods pods() {
        return PODS;
    }
}
