package dev.shortgate.link.api;

import org.springframework.test.context.TestPropertySource;

/** {@link LinkApiTest} under the sequence strategy. */
@TestPropertySource(
        properties = {
            "shortgate.codegen.strategy=sequence",
            "shortgate.codegen.pool.low-water=200",
            "shortgate.codegen.pool.high-water=1000"
        })
class LinkApiSequenceTest extends LinkApiTest {}
