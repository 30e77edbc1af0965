package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class VisitEnricherTest {

    @Test
    void visitsAreStillWrittenWhenTheUserAgentParserCannotBeBuilt() throws Exception {
        VisitEnricher enricher = new VisitEnricher(() -> null, GeoLocator.open(null), false);
        List<Visit> rows = enricher.enrich(List.of(
                new RawVisit(new byte[12], "abc", Instant.EPOCH, InetAddress.getByName("81.2.69.142"),
                        "Mozilla/5.0 (Windows NT 10.0) Chrome/120.0", null),
                new RawVisit(new byte[12], "abc", Instant.EPOCH, InetAddress.getByName("81.2.69.142"),
                        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", null)));

        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).browser()).isNull();
        assertThat(rows.get(0).bot()).isFalse();
        assertThat(rows.get(0).ip()).isEqualTo("81.2.69.0");
        assertThat(rows.get(1).bot()).as("link-preview agents are known without the parser").isTrue();
    }
}
