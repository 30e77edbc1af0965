package dev.shortgate.security;

import dev.shortgate.system.database.DatabaseDialect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Makes sure someone can use the API. A configured {@code SHORTGATE_ADMIN_KEY} needs nothing stored. Without
 * one, the embedded mode (H2) generates an admin key at first start, prints it once, and stores only its hash;
 * against a shared database it only warns, since several pods starting at once must not each mint a key.
 */
@Component
class AdminKeyBootstrap {

    private static final Logger log = LoggerFactory.getLogger(AdminKeyBootstrap.class);

    private final ApiKeys keys;
    private final boolean embedded;

    AdminKeyBootstrap(ApiKeys keys, DatabaseDialect dialect) {
        this.keys = keys;
        this.embedded = dialect.embedded();
    }

    @EventListener(ApplicationReadyEvent.class)
    void ensureAnAdminKey() {
        if (keys.hasConfiguredAdminKey()) {
            return;
        }
        keys.anyAdminKey()
                .filter(any -> !any)
                .flatMap(none -> {
                    if (!embedded) {
                        log.warn("No admin API key is configured or stored: set SHORTGATE_ADMIN_KEY to use the API");
                        return Mono.empty();
                    }
                    return keys.create("bootstrap-admin", ApiScope.ADMIN)
                            .doOnNext(created -> log.warn(
                                    "Generated the first admin API key (id {}). It is shown only this once; store it now:\n\n"
                                            + "    {}\n\nUse it as the X-Api-Key header. Set SHORTGATE_ADMIN_KEY to choose your own.",
                                    created.info().id(),
                                    created.key()));
                })
                .subscribe(created -> {}, error -> log.error("Could not check for an admin API key", error));
    }
}
