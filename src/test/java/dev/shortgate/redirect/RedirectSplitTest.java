package dev.shortgate.redirect;

import org.springframework.test.context.TestPropertySource;

/**
 * {@link RedirectTest} with links split over 62 tables by their first character; the links it writes into
 * {@code link} by hand are read from there, as rows not moved yet.
 */
@TestPropertySource(
        properties = {
            "shortgate.storage.table-split=first-char",
            "spring.r2dbc.url=r2dbc:h2:mem:///redirect-split?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
class RedirectSplitTest extends RedirectTest {}
