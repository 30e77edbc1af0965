/**
 * Shlink's REST API v3 as an adapter over the link and visit features, so Shlink's web client and tools work against
 * Shortgate. Nothing depends on it: it offers no named interface.
 */
@ApplicationModule(
        allowedDependencies = {
            "link :: model",
            "domain :: registry",
            "link :: domains",
            "link :: service",
            "link :: store",
            "visit :: orphans",
            "rules :: check",
            "visit :: deletion",
            "security :: principal",
            "system :: *"
        })
package dev.shortgate.shlink;

import org.springframework.modulith.ApplicationModule;
