package dev.shortgate.transfer.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import org.junit.jupiter.api.Test;
import org.springframework.web.reactive.function.client.WebClient;
import tools.jackson.databind.json.JsonMapper;

class SourceHttpTest {

    final SourceHttp http =
            new SourceHttp(WebClient.create(), JsonMapper.builder().build(), 3, Duration.ofSeconds(60));

    @Test
    void retryAfterIsReadAsSecondsOrAnHttpDateAndCappedAndDefaulted() {
        assertThat(http.retryAfter("7")).isEqualTo(Duration.ofSeconds(7));
        assertThat(http.retryAfter("3600")).isEqualTo(Duration.ofSeconds(60));
        assertThat(http.retryAfter(null)).isEqualTo(Duration.ofSeconds(1));
        assertThat(http.retryAfter("soon")).isEqualTo(Duration.ofSeconds(1));
        String inTwentySeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(20));
        assertThat(http.retryAfter(inTwentySeconds)).isBetween(Duration.ofSeconds(15), Duration.ofSeconds(20));
        String past = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).minusHours(1));
        assertThat(http.retryAfter(past)).isEqualTo(Duration.ZERO);
    }

    @Test
    void aSignatureInTheQueryIsNeverShownAndBitlysNextPageGivesItsCursor() {
        assertThat(SourceHttp.withoutQuery("https://y.example/yourls-api.php?signature=secret&action=stats"))
                .isEqualTo("https://y.example/yourls-api.php");
        assertThat(BitlySource.searchAfter("https://api-ssl.bitly.com/v4/groups/G/bitlinks?size=50&search_after=a%2Bb"))
                .isEqualTo("a+b");
        assertThat(SourceHttp.lastSegment("https://sho.rt/abc/")).isEqualTo("abc");
        assertThat(SourceHttp.lastSegment("bit.ly/xyz")).isEqualTo("xyz");
    }
}
