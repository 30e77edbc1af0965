package dev.shortgate.shlink;

import org.springframework.test.context.TestPropertySource;

/** {@link ShlinkApiTest} with links split over 62 tables: Shlink's listings, tags and visits read {@code link_all}. */
@TestPropertySource(
        properties = {
            "shortgate.storage.table-split=first-char",
            "spring.r2dbc.url=r2dbc:h2:mem:///shlinkapi-split?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
class ShlinkApiSplitTest extends ShlinkApiTest {}
