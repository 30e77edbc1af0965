package dev.shortgate.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import com.google.common.hash.Hashing;
import dev.shortgate.system.problem.Problem;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * API keys: made here, stored only as SHA-256 hashes, looked up by hash, compared in constant time. A key is
 * {@code sg_} followed by 43 base64url characters (256 random bits), so hashing it is enough: there is nothing
 * to guess from a hash, and no salt or slow hash is needed for a key this long.
 */
@Component
public class ApiKeys {

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * A key as the admin API lists it; the key itself is never shown again after creation. {@code domainId} is the
     * one domain it is limited to, or {@code null}.
     */
    public record KeyInfo(long id, String name, String scope, Integer domainId, Instant createdAt, Instant revokedAt) {}

    /** A new key: its info, and the key itself, shown once. */
    public record NewKey(KeyInfo info, String key) {}

    private final DatabaseClient db;
    private final Clock clock;
    private final byte[] configuredAdminHash; // null when no admin key is configured
    private final AsyncCache<String, Optional<ApiPrincipal>> byHash;

    ApiKeys(DatabaseClient db, Clock clock, Ticker ticker, SecurityProperties properties) {
        this.db = db;
        this.clock = clock;
        this.configuredAdminHash = StringUtils.hasText(properties.adminKey()) ? sha256(properties.adminKey()) : null;
        this.byHash = Caffeine.newBuilder()
                .maximumSize(10_000)
                .expireAfterWrite(properties.keyCacheTtl())
                .ticker(ticker)
                .executor(Runnable::run)
                .buildAsync();
    }

    boolean hasConfiguredAdminKey() {
        return configuredAdminHash != null;
    }

    /** The principal a presented key stands for, or empty when it is unknown or revoked. */
    Mono<ApiPrincipal> authenticate(String presented) {
        byte[] hash = sha256(presented);
        if (configuredAdminHash != null && MessageDigest.isEqual(hash, configuredAdminHash)) {
            return Mono.just(new ApiPrincipal(null, "configured-admin", ApiScope.ADMIN));
        }
        String cacheKey = Base64.getEncoder().encodeToString(hash);
        return Mono.fromFuture(
                        byHash.get(cacheKey, (k, executor) -> lookup(hash).toFuture()), true)
                .flatMap(Mono::justOrEmpty);
    }

    /**
     * Like {@link #authenticate}, but answers only from what this pod already knows (the configured admin key and
     * keys found recently), never from the database: for clients that have presented too many wrong keys.
     */
    Mono<ApiPrincipal> authenticateKnown(String presented) {
        byte[] hash = sha256(presented);
        if (configuredAdminHash != null && MessageDigest.isEqual(hash, configuredAdminHash)) {
            return Mono.just(new ApiPrincipal(null, "configured-admin", ApiScope.ADMIN));
        }
        var cached = byHash.getIfPresent(Base64.getEncoder().encodeToString(hash));
        if (cached == null || !cached.isDone() || cached.isCompletedExceptionally()) {
            return Mono.empty();
        }
        return Mono.justOrEmpty(cached.join());
    }

    private Mono<Optional<ApiPrincipal>> lookup(byte[] hash) {
        return db.sql("SELECT id, name, key_hash, scope, domain_id FROM api_key"
                        + " WHERE key_hash = :hash AND revoked_at IS NULL")
                .bind("hash", hash)
                .map(row -> {
                    byte[] stored = row.get("key_hash", byte[].class);
                    if (stored == null || !MessageDigest.isEqual(stored, hash)) {
                        return Optional.<ApiPrincipal>empty();
                    }
                    return Optional.of(new ApiPrincipal(
                            ((Number) row.get("id")).longValue(),
                            row.get("name", String.class),
                            ApiScope.parse(row.get("scope", String.class)),
                            domainId(row.get("domain_id"))));
                })
                .one()
                .defaultIfEmpty(Optional.empty());
    }

    public Mono<NewKey> create(String name, ApiScope scope) {
        return create(name, scope, null);
    }

    /** Makes a key; {@code domainId} limits it to that domain ({@code null}: every domain). */
    public Mono<NewKey> create(String name, ApiScope scope, Integer domainId) {
        if (!StringUtils.hasText(name) || name.length() > 100) {
            return Mono.error(Problem.INVALID_REQUEST
                    .toException("name must be 1 to 100 characters.")
                    .with("field", "name"));
        }
        String key = newKey();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        var insert = db.sql("INSERT INTO api_key (name, key_hash, scope, domain_id, created_at)"
                        + " VALUES (:name, :hash, :scope, :domain, :at)")
                .bind("name", name)
                .bind("hash", sha256(key))
                .bind("scope", scope.value())
                .bind("at", LocalDateTime.ofInstant(now, ZoneOffset.UTC));
        insert = domainId == null ? insert.bindNull("domain", Integer.class) : insert.bind("domain", domainId);
        return insert.filter(statement -> statement.returnGeneratedValues("id"))
                .map(row -> ((Number) row.get("id")).longValue())
                .one()
                .map(id -> new NewKey(new KeyInfo(id, name, scope.value(), domainId, now, null), key));
    }

    public Flux<KeyInfo> list() {
        return db.sql("SELECT id, name, scope, domain_id, created_at, revoked_at FROM api_key ORDER BY id")
                .map(row -> new KeyInfo(
                        ((Number) row.get("id")).longValue(),
                        row.get("name", String.class),
                        row.get("scope", String.class),
                        domainId(row.get("domain_id")),
                        instant(row.get("created_at", LocalDateTime.class)),
                        instant(row.get("revoked_at", LocalDateTime.class))))
                .all();
    }

    /** Revokes a key; this pod stops accepting it at once, other pods within the key cache TTL. */
    public Mono<Void> revoke(long id) {
        return db.sql("UPDATE api_key SET revoked_at = :at WHERE id = :id AND revoked_at IS NULL")
                .bind("at", LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC))
                .bind("id", id)
                .fetch()
                .rowsUpdated()
                .flatMap(rows -> rows > 0
                        ? Mono.empty()
                        : Mono.error(Problem.API_KEY_NOT_FOUND.toException("No active API key has the id " + id + ".")))
                .doOnSuccess(done -> byHash.synchronous().invalidateAll())
                .then();
    }

    /** Whether any admin key is stored (used to decide whether to bootstrap one). */
    Mono<Boolean> anyAdminKey() {
        return db.sql("SELECT COUNT(*) AS n FROM api_key WHERE scope = 'admin' AND revoked_at IS NULL")
                .map(row -> ((Number) row.get("n")).longValue() > 0)
                .one();
    }

    static String newKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "sg_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static byte[] sha256(String value) {
        return Hashing.sha256().hashString(value, StandardCharsets.UTF_8).asBytes();
    }

    private static Integer domainId(Object value) {
        return value == null ? null : ((Number) value).intValue();
    }

    private static Instant instant(LocalDateTime value) {
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }
}
