package dev.shortgate.domain;

import org.springframework.test.context.TestPropertySource;

/** {@link DomainLinksTest} with links split over 62 tables by their first character. */
@TestPropertySource(
        properties = {
            "shortgate.storage.table-split=first-char",
            "spring.r2dbc.url=r2dbc:h2:mem:///domainlinks-split?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
class DomainLinksSplitTest extends DomainLinksTest {}
