package dev.shortgate.link.api;

import org.springframework.test.context.TestPropertySource;

/** {@link LinkApiTest} with links split over 62 tables by their first character. */
@TestPropertySource(
        properties = {
            "shortgate.storage.table-split=first-char",
            "spring.r2dbc.url=r2dbc:h2:mem:///linkapi-split?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
class LinkApiSplitTest extends LinkApiTest {}
