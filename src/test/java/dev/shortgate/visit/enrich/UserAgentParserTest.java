package dev.shortgate.visit.enrich;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class UserAgentParserTest {

    static UserAgentParser parser;

    @BeforeAll
    static void build() {
        parser = UserAgentParser.shared(); // slow (seconds): once per JVM
    }

    @Test
    void desktopChromeIsABrowserOnAnOperatingSystem() {
        UserAgentParser.Parsed parsed = parser.parse("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
                + "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36");

        assertThat(parsed.browser()).isEqualTo("Chrome");
        assertThat(parsed.browserVersion()).startsWith("124");
        assertThat(parsed.os()).isEqualTo("Windows NT");
        assertThat(parsed.deviceClass()).isEqualTo("Desktop");
        assertThat(parsed.bot()).isFalse();
    }

    @Test
    void iphoneSafariIsAPhone() {
        UserAgentParser.Parsed parsed = parser.parse("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) "
                + "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1");

        assertThat(parsed.browser()).isEqualTo("Safari");
        assertThat(parsed.os()).isEqualTo("iOS");
        assertThat(parsed.deviceClass()).isEqualTo("Phone");
        assertThat(parsed.bot()).isFalse();
    }

    @Test
    void crawlerIsABotByDeviceClass() {
        UserAgentParser.Parsed parsed =
                parser.parse("Mozilla/5.0 (compatible; Googlebot/2.1; " + "+http://www.google.com/bot.html)");

        assertThat(parsed.deviceClass()).startsWith("Robot");
        assertThat(parsed.bot()).isTrue();
    }

    @Test
    void linkPreviewFetchersAreBots() {
        for (String agent : new String[] {
            "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
            "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
            "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
            "WhatsApp/2.23.20.0",
            "TelegramBot (like TwitterBot)",
            "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
            "Twitterbot/1.0"
        }) {
            assertThat(parser.parse(agent).bot()).as(agent).isTrue();
        }
    }

    @Test
    void missingAgentCountsAsABot() {
        UserAgentParser.Parsed parsed = parser.parse(null);

        assertThat(parsed.deviceClass()).isEqualTo("Hacker");
        assertThat(parsed.bot()).isTrue();
        assertThat(parser.parse("").bot()).isTrue();
    }

    @Test
    void aReturningAgentIsAnsweredFromTheCacheWithTheSameVerdict() {
        String agent = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0";
        UserAgentParser.Parsed first = parser.parse(agent);

        assertThat(parser.parse(new String(agent))).isSameAs(first); // equal text, another instance: still a hit
        assertThat(first.browser()).isEqualTo("Firefox");
        assertThat(first.bot()).isFalse();
    }

    @Test
    void anAgentTooLongToKeepIsParsedEachTimeAlike() {
        String agent = "Slackbot-LinkExpanding 1.0 " + "x".repeat(UserAgentParser.MAX_CACHED_LENGTH);
        UserAgentParser.Parsed first = parser.parse(agent);

        assertThat(parser.parse(agent)).isNotSameAs(first).isEqualTo(first);
        assertThat(first.bot()).isTrue();
    }
}
