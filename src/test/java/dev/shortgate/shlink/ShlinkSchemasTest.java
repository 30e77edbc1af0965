package dev.shortgate.shlink;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The pinned schemas really judge: Shlink's own example passes, a short URL missing its fields does not. */
class ShlinkSchemasTest {

    @Test
    void shlinksOwnExampleOfAShortUrlPasses() {
        assertThatCode(() -> ShlinkSchemas.assertValid("v1_short-urls.json", "post", "200", """
                {"shortCode":"12C18","shortUrl":"https://s.test/12C18","longUrl":"https://store.steampowered.com",
                 "dateCreated":"2016-08-21T20:34:16+02:00","visitsSummary":{"total":0,"nonBots":0,"bots":0},
                 "tags":["games","tech"],"meta":{"validSince":null,"validUntil":null,"maxVisits":500},
                 "domain":null,"title":null,"crawlable":false,"forwardQuery":true,"hasRedirectRules":false}
                """))
                .doesNotThrowAnyException();
    }

    @Test
    void shortUrlWithoutTagsOrWithAWronglyTypedFieldFails() {
        assertThatThrownBy(() -> ShlinkSchemas.assertValid("v1_short-urls.json", "post", "200", """
                {"shortCode":"12C18","shortUrl":"https://s.test/12C18","longUrl":"https://store.steampowered.com",
                 "dateCreated":"2016-08-21T20:34:16+02:00","visitsSummary":{"total":0,"nonBots":0,"bots":0},
                 "meta":{"validSince":null,"validUntil":null,"maxVisits":500},
                 "domain":null,"title":null,"crawlable":"no","forwardQuery":true,"hasRedirectRules":false}
                """))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("tags")
                .hasMessageContaining("crawlable");
    }
}
