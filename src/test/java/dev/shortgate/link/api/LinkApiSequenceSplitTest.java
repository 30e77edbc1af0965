package dev.shortgate.link.api;

import org.springframework.test.context.TestPropertySource;

/**
 * {@link LinkApiTest} under the sequence strategy with links split over 62 tables: concurrent creates of one link
 * propose different codes, in different tables, so only the create key's claim makes them one row.
 */
@TestPropertySource(
        properties = {
            "shortgate.storage.table-split=first-char",
            "shortgate.codegen.strategy=sequence",
            "spring.r2dbc.url=r2dbc:h2:mem:///linkapi-sequence-split?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
class LinkApiSequenceSplitTest extends LinkApiTest {}
