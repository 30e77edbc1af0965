package dev.shortgate.link;

import dev.shortgate.support.Pods;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ConcurrentCreateChecks} under the sequence strategy, with links split over 62 tables: the racing creates
 * propose codes in different tables, so the claim in {@code link_create_key} is what makes them one row.
 */
class ConcurrentCreateSequenceSplitIT extends ConcurrentCreateChecks {

    @RegisterExtension
    static final Pods PODS = twoPods("sequence").with("shortgate.storage.table-split", "first-char");

    @Override
    Pods pods() {
        return PODS;
    }
}
