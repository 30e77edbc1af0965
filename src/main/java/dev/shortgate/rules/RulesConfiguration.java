package dev.shortgate.rules;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

import dev.shortgate.system.settings.SharedSecrets;
import dev.shortgate.visit.enrich.GeoLocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;
import reactor.util.retry.Retry;

/** Wires the rule engine: the agent cache, the GeoIP database visits use, and the split's key. */
@Configuration(proxyBeanMethods = false)
class RulesConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RulesConfiguration.class);

    /** Agents whose classification is kept. */
    static final long AGENT_CACHE_SIZE = 4_096;
    /** The client-id key's setting, as visit's {@code VisitConfiguration.CLIENT_ID_KEY} names it. */
    static final String CLIENT_ID_KEY = "visit.client-id-key";

    @Bean
    VariantPicker variantPicker() {
        return new VariantPicker();
    }

    @Bean
    RuleEngine ruleEngine(GeoLocator geo, VariantPicker variants, Clock clock) {
        return new RuleEngine(new Agents(AGENT_CACHE_SIZE), geo, variants, clock);
    }

    /**
     * Reads the client-id key for splits once the application is up: {@code shortgate.visit.client-id-secret} if
     * set, else the shared generated key, retried until the database gives it.
     */
    @Bean
    ApplicationListener<ApplicationReadyEvent> variantKeyLoader(
            VariantPicker variants, SharedSecrets secrets, Environment environment) {
        return event -> {
            String secret = environment.getProperty("shortgate.visit.client-id-secret");
            if (StringUtils.hasText(secret)) {
                variants.key(secret.getBytes(StandardCharsets.UTF_8));
                return;
            }
            secrets.get(CLIENT_ID_KEY)
                    .retryWhen(
                            Retry.backoff(Long.MAX_VALUE, Duration.ofSeconds(1)).maxBackoff(Duration.ofSeconds(30)))
                    .subscribe(variants::key, error -> log.warn("Could not read the client-id key for splits", error));
        };
    }
}
