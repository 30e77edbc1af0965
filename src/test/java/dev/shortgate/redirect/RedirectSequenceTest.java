package dev.shortgate.redirect;

import org.springframework.test.context.TestPropertySource;

/** {@link RedirectTest} under the sequence strategy. */
@TestPropertySource(
        properties = {
            "shortgate.codegen.strategy=sequence",
            "shortgate.codegen.pool.low-water=200",
            "shortgate.codegen.pool.high-water=1000"
        })
class RedirectSequenceTest extends RedirectTest {}
