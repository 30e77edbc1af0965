package dev.shortgate.redirect;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;

/** Every redirect behaviour of {@link RedirectTest} again, with the fast path off: through Spring's dispatcher only. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=test-admin-key-0123456789",
            "shortgate.redirect.fast-path=false",
            "spring.r2dbc.url=r2dbc:h2:mem:///redirect-general?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class RedirectWithoutFastPathTest extends RedirectTest {}
