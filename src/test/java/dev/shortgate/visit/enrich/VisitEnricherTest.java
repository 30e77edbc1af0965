package dev.shortgate.visit.enrich;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.Visit;
import org.junit.jupiter.api.Test;

class VisitEnricherTest {

    static final byte[] KEY = "client-id-key-for-tests-32-bytes".getBytes(StandardCharsets.UTF_8);

    @Test
    void visitsAreStillWrittenWhenTheUserAgentParserCannotBeBuilt() throws Exception {
        VisitEnricher enricher = new VisitEnricher(() -> null, GeoLocator.open(null), false);
        List<Visit> rows = enricher.enrich(
                List.of(
                        new RawVisit(
                                new byte[12],
                                "abc",
                                Instant.EPOCH,
                                InetAddress.getByName("81.2.69.142"),
                                "Mozilla/5.0 (Windows NT 10.0) Chrome/120.0",
                                null),
                        new RawVisit(
                                new byte[12],
                                "abc",
                                Instant.EPOCH,
                                InetAddress.getByName("81.2.69.142"),
                                "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
                                null)),
                KEY);

        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).visitor().browser()).isNull();
        assertThat(rows.get(0).visitor().bot()).isFalse();
        assertThat(rows.get(0).visitor().ip()).isEqualTo("81.2.69.0");
        assertThat(rows.get(1).visitor().bot())
                .as("link-preview agents are known without the parser")
                .isTrue();
    }

    @Test
    void clientIdIsAKeyedHashOfTheIpAndUserAgentSoAnAnonymisedRowCannotBeReversed() throws Exception {
        String agent = "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0";
        InetAddress ip = InetAddress.getByName("81.2.69.142");
        String clientId = VisitEnricher.clientId(VisitEnricher.hmac(KEY), ip, agent);

        Mac expected = Mac.getInstance("HmacSHA256");
        expected.init(new SecretKeySpec(KEY, "HmacSHA256"));
        assertThat(clientId)
                .isEqualTo(HexFormat.of()
                        .formatHex(expected.doFinal(("81.2.69.142&" + agent).getBytes(StandardCharsets.UTF_8))));
        assertThat(clientId)
                .hasSize(64)
                .isEqualTo(VisitEnricher.clientId(VisitEnricher.hmac(KEY), ip, agent))
                .isNotEqualTo(VisitEnricher.clientId(VisitEnricher.hmac(new byte[32]), ip, agent))
                .isNotEqualTo(
                        VisitEnricher.clientId(VisitEnricher.hmac(KEY), InetAddress.getByName("81.2.69.143"), agent));
        // the plain SHA-256 a reader of the row could recompute from the /24, the user agent and 256 guesses
        String unkeyed = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(("81.2.69.142&" + agent).getBytes(StandardCharsets.UTF_8)));
        assertThat(clientId).isNotEqualTo(unkeyed);
    }
}
