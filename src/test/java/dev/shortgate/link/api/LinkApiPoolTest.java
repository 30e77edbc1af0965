package dev.shortgate.link.api;

import org.springframework.test.context.TestPropertySource;

/** {@link LinkApiTest} under the pool strategy (its pool in the H2 database, without Redis). */
@TestPropertySource(
        properties = {
            "shortgate.codegen.strategy=pool",
            "shortgate.codegen.pool.low-water=200",
            "shortgate.codegen.pool.high-water=1000"
        })
class LinkApiPoolTest extends LinkApiTest {}
