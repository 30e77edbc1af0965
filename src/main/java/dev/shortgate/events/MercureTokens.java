package dev.shortgate.events;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * Mercure subscriber tokens, signed and checked with Nimbus JOSE + JWT (HS256): Shlink's claims, an issuer, the
 * issue and expiry times, and {@code mercure.subscribe}, the topic selectors the holder may receive.
 */
final class MercureTokens {

    /** Every topic: what {@code mercure-info} grants, as Shlink's token lets its client read every update. */
    static final List<String> ALL = List.of("*");

    private final byte[] secret;
    private final MACSigner signer;
    private final MACVerifier verifier;
    private final Clock clock;

    /** @param secret at least 32 bytes, or {@code null}/empty for a random key */
    MercureTokens(String secret, Clock clock) {
        this.secret = secret == null || secret.isEmpty() ? random() : secret.getBytes(StandardCharsets.UTF_8);
        if (this.secret.length < 32) {
            throw new IllegalArgumentException("shortgate.events.mercure.jwt-secret must be at least 32 bytes");
        }
        try {
            this.signer = new MACSigner(this.secret);
            this.verifier = new MACVerifier(this.secret);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("Unusable Mercure JWT secret", e);
        }
        this.clock = clock;
    }

    private static byte[] random() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return key;
    }

    /** A token that lets its holder subscribe to {@code topics} until {@code expiresAt}. */
    String issue(List<String> topics, Instant expiresAt) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer("Shortgate")
                .issueTime(Date.from(clock.instant()))
                .expirationTime(Date.from(expiresAt))
                .claim("mercure", Map.of("subscribe", topics))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("Could not sign a Mercure token", e);
        }
        return jwt.serialize();
    }

    /**
     * The topic selectors a token grants, or {@code null} when it is not one of ours: malformed, not HS256, badly
     * signed, expired, or without a {@code mercure.subscribe} list.
     */
    List<String> subscriptions(String token) {
        if (token == null || token.isBlank()) {
            return null;
        }
        try {
            SignedJWT jwt = SignedJWT.parse(token.trim());
            if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()) || !jwt.verify(verifier)) {
                return null;
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Date expires = claims.getExpirationTime();
            if (expires != null && !expires.toInstant().isAfter(clock.instant())) {
                return null;
            }
            if (!(claims.getClaim("mercure") instanceof Map<?, ?> mercure)
                    || !(mercure.get("subscribe") instanceof List<?> subscribe)) {
                return null;
            }
            return subscribe.stream().map(String::valueOf).toList();
        } catch (ParseException | JOSEException | RuntimeException e) {
            return null;
        }
    }
}
