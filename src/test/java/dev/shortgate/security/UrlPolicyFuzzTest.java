package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.shortgate.support.FuzzInputs;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.system.settings.ShortgateProperties;
import org.springframework.http.HttpStatus;

/**
 * Fuzzes {@link UrlPolicy#normalize}. Under {@code ./mvnw verify} it only replays the inputs saved in
 * {@code src/test/resources/dev/shortgate/security/UrlPolicyFuzzTestInputs/normalize/} (plus the empty input);
 * with {@code JAZZER_FUZZ=1} it fuzzes (see docs/api.md, "URL safety policy"). A finding is saved as {@code crash-*} in that
 * directory, and from then on replayed in every build.
 *
 * <p>Input bytes are UTF-8, so seed files are plain text; an input that starts with byte {@code 0xFF} (never
 * valid UTF-8) is read as raw UTF-16BE instead, which reaches unpaired surrogates.
 */
class UrlPolicyFuzzTest {

    private static final UrlPolicy POLICY = new UrlPolicy(new ShortgateProperties(URI.create("https://sho.rt")));

    private static final Pattern URL =
            Pattern.compile("(https?)://(\\[[0-9a-f:]+\\]|[a-z0-9.-]+)(:[0-9]{1,5})?([/?#].*)?");
    private static final Pattern DOTTED_QUAD = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    @FuzzTest(maxDuration = "60s")
    void normalize(byte[] input) throws UnknownHostException {
        String raw = FuzzInputs.text(input);
        String normalized;
        try {
            normalized = POLICY.normalize(raw);
        } catch (ProblemException e) {
            assertThat(e.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
            assertThat(e.getBody().getType().toString()).startsWith("https://shortgate.dev/problems/");
            return;
        }
        assertThat(normalized.length()).isLessThanOrEqualTo(UrlPolicy.MAX_LENGTH);
        for (int i = 0; i < normalized.length(); i++) {
            char c = normalized.charAt(i);
            assertThat(c > 0x20 && c < 0x7F)
                    .as("printable ASCII at %d of %s", i, normalized)
                    .isTrue();
        }
        assertThat(POLICY.normalize(normalized))
                .as("normalising %s again", normalized)
                .isEqualTo(normalized);

        Matcher url = URL.matcher(normalized);
        assertThat(url.matches()).as("shape of %s", normalized).isTrue();
        String host = url.group(2);
        assertThat(URI.create(normalized).getHost()).isEqualTo(host);
        if (url.group(3) != null) {
            int port = Integer.parseInt(url.group(3).substring(1));
            assertThat(port).isBetween(1, 65535).isNotEqualTo(url.group(1).equals("http") ? 80 : 443);
        }
        assertPublic(host, normalized);
    }

    /** Checks the host with the JDK's own address classification, an oracle independent of {@link IpLiterals}. */
    private static void assertPublic(String host, String normalized) throws UnknownHostException {
        InetAddress address = null;
        Matcher quad = DOTTED_QUAD.matcher(host);
        if (quad.matches()) {
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                int part = Integer.parseInt(quad.group(i + 1));
                assertThat(part).isLessThanOrEqualTo(255);
                assertThat(quad.group(i + 1)).isEqualTo(Integer.toString(part)); // dotted decimal, no leading zeros
                bytes[i] = (byte) part;
            }
            address = InetAddress.getByAddress(bytes);
        } else if (host.startsWith("[")) {
            // An IP literal: the JDK parses it and never asks DNS (and turns ::ffff:a.b.c.d into IPv4).
            address = InetAddress.getByName(host);
        } else {
            String last = host.substring(host.lastIndexOf('.') + 1);
            assertThat(last).as("last label of %s is no number", normalized).doesNotMatch("[0-9]+|0x[0-9a-f]*");
            assertThat(host)
                    .as("host of %s", normalized)
                    .contains(".")
                    .doesNotEndWith(".")
                    .isNotEqualTo("localhost")
                    .doesNotEndWith(".localhost")
                    .doesNotEndWith(".internal");
        }
        if (address != null) {
            byte[] b = address.getAddress();
            assertThat(address.isAnyLocalAddress()
                            || address.isLoopbackAddress()
                            || address.isLinkLocalAddress()
                            || address.isSiteLocalAddress()
                            || address.isMulticastAddress())
                    .as("private %s", normalized)
                    .isFalse();
            if (b.length == 4) {
                assertThat(b[0] == 0 || (b[0] & 0xF0) == 0xF0 || (b[0] == 100 && (b[1] & 0xC0) == 64))
                        .as("reserved or CGNAT %s", normalized)
                        .isFalse();
            } else {
                assertThat((b[0] & 0xFE) == 0xFC)
                        .as("unique local %s", normalized)
                        .isFalse();
                assertThat((b[0] & 0xE0) == 0x20)
                        .as("global unicast %s", normalized)
                        .isTrue();
            }
        }
    }
}
