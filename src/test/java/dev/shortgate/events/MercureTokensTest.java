package dev.shortgate.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

class MercureTokensTest {

    static final String SECRET = "a-secret-of-at-least-thirty-two-bytes";
    final Instant now = Instant.parse("2026-11-26T06:00:00Z");

    @Test
    void aTokenIssuedGrantsItsTopicsUntilItExpires() {
        MercureTokens tokens = new MercureTokens(SECRET, Clock.fixed(now, ZoneOffset.UTC));
        String token = tokens.issue(List.of("https://shlink.io/new-visit"), now.plusSeconds(60));
        assertThat(tokens.subscriptions(token)).containsExactly("https://shlink.io/new-visit");
        MercureTokens later = new MercureTokens(SECRET, Clock.fixed(now.plusSeconds(60), ZoneOffset.UTC));
        assertThat(later.subscriptions(token)).isNull();
    }

    @Test
    void anotherKeyOrGarbageGrantsNothing() {
        MercureTokens ours = new MercureTokens(SECRET, Clock.fixed(now, ZoneOffset.UTC));
        MercureTokens theirs = new MercureTokens(null, Clock.fixed(now, ZoneOffset.UTC));
        assertThat(ours.subscriptions(theirs.issue(MercureTokens.ALL, now.plusSeconds(60))))
                .isNull();
        assertThat(ours.subscriptions("a.b.c")).isNull();
        assertThat(ours.subscriptions("")).isNull();
        assertThat(ours.subscriptions(null)).isNull();
    }

    @Test
    void aShortSecretIsRefusedAtStartup() {
        assertThatThrownBy(() -> new MercureTokens("short", Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32 bytes");
    }
}
