package dev.shortgate.system.settings;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Random keys that every pod sharing a database must agree on, made once and kept in {@code shortgate_setting}:
 * the first pod to need one makes 256 random bits and inserts them; the primary key settles a race, and the loser
 * reads the winner's key. A key, once read, is kept for the life of the process; an error is never kept, so a
 * database outage at first use heals.
 */
@Component
public class SharedSecrets {

    private static final Logger log = LoggerFactory.getLogger(SharedSecrets.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final DatabaseClient db;
    private final Map<String, Mono<byte[]>> keys = new ConcurrentHashMap<>();

    SharedSecrets(DatabaseClient db) {
        this.db = db;
    }

    /** The shared key stored under {@code name}, made now if no pod has made it yet. */
    public Mono<byte[]> get(String name) {
        return keys.computeIfAbsent(name, key -> loadOrCreate(key)
                .map(value -> Base64.getDecoder().decode(value))
                .cache(value -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ZERO, () -> Duration.ZERO));
    }

    private Mono<String> loadOrCreate(String name) {
        Mono<String> read = db.sql("SELECT setting_value FROM shortgate_setting WHERE setting_key = :name")
                .bind("name", name)
                .map(row -> row.get("setting_value", String.class))
                .one();
        return read.switchIfEmpty(Mono.defer(() -> {
            byte[] key = new byte[32];
            RANDOM.nextBytes(key);
            String value = Base64.getEncoder().encodeToString(key);
            return db.sql("INSERT INTO shortgate_setting (setting_key, setting_value) VALUES (:name, :value)")
                    .bind("name", name)
                    .bind("value", value)
                    .then()
                    .doOnSuccess(done -> log.info("Generated the shared key '{}' and stored it in the database", name))
                    .thenReturn(value)
                    .onErrorResume(DuplicateKeyException.class, raced -> read);
        }));
    }
}
