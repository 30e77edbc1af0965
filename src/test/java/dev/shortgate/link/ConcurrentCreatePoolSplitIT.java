package dev.shortgate.link;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ConcurrentCreateChecks} under the pool strategy (its pool in Redis), with links split over 62 tables: each
 * racing create takes its own pooled code, likely in another table, so the claim in {@code link_create_key} is what
 * makes them one row.
 */
class ConcurrentCreatePoolSplitIT extends ConcurrentCreateChecks {

    @RegisterExtension
    static final Pods PODS = twoPods("pool").withRedis().with("shortgate.storage.table-split", "first-char");

    @Override
    Pods pods() {
        return PODS;
    }
}
