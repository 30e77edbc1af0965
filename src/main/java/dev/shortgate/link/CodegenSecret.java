package dev.shortgate.link;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

import dev.shortgate.codegen.CodegenProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import reactor.core.publisher.Mono;

/**
 * The key of the code generator's HMAC. A configured secret wins; otherwise the first pod to need one makes a
 * random key and stores it in the database, and every pod sharing that database reads the same key. Pods must
 * agree on the key so that they propose the same first candidates for a URL, which lets the unique key settle
 * concurrent creates into one code.
 */
@Component
class CodegenSecret {

    private static final Logger log = LoggerFactory.getLogger(CodegenSecret.class);
    static final String SETTING = "codegen.secret";

    private final Mono<byte[]> secret;

    CodegenSecret(CodegenProperties properties, DatabaseClient db) {
        if (StringUtils.hasText(properties.secret())) {
            this.secret = Mono.just(properties.secret().getBytes(StandardCharsets.UTF_8));
        } else {
            this.secret = loadOrCreate(db)
                    .map(value -> Base64.getDecoder().decode(value))
                    // Keep a value forever; never keep an error, so a database outage at first use heals.
                    .cache(value -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ZERO, () -> Duration.ZERO);
        }
    }

    Mono<byte[]> get() {
        return secret;
    }

    private static Mono<String> loadOrCreate(DatabaseClient db) {
        Mono<String> read = db.sql("SELECT setting_value FROM shortgate_setting WHERE setting_key = :name")
                .bind("name", SETTING)
                .map(row -> row.get("setting_value", String.class))
                .one();
        return read.switchIfEmpty(Mono.defer(() -> {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            String value = Base64.getEncoder().encodeToString(key);
            return db.sql("INSERT INTO shortgate_setting (setting_key, setting_value) VALUES (:name, :value)")
                    .bind("name", SETTING)
                    .bind("value", value)
                    .then()
                    .doOnSuccess(done -> log.info("Generated a code-generation key and stored it in the database; "
                            + "set shortgate.codegen.secret to manage it yourself"))
                    .thenReturn(value)
                    .onErrorResume(DuplicateKeyException.class, raced -> read);
        }));
    }
}
