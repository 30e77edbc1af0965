package dev.shortgate.transfer;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Where an import reads links from, a page at a time: what it holds in memory is one page, never the source. */
public interface ImportSource {

    /** The records from a checkpoint on ({@code null}: from the start); lazy, following demand. */
    Flux<ImportRecord> read(String checkpoint);

    /** How many records the source says it holds, for the progress bar; empty when it does not say. */
    default Mono<Long> total() {
        return Mono.empty();
    }

    /** Whether its click counts are only totals per link (they then seed one day of the aggregate). */
    default boolean clicksAreTotals() {
        return false;
    }

    /** A link's visits, when the source has them and they were asked for; paged like the links. */
    default Flux<ImportRecord.Visit> visits(ImportRecord record) {
        return Flux.empty();
    }
}
