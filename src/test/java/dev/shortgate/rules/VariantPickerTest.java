package dev.shortgate.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

class VariantPickerTest {

    static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    @Test
    void theBucketIsTheHmacOfAddressAgentAndCodeAsDocumented() throws Exception {
        VariantPicker picker = new VariantPicker();
        picker.key(KEY);
        for (Object[] input : inputs()) {
            InetAddress ip = (InetAddress) input[0];
            String agent = (String) input[1];
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
            long expected = first8(mac.doFinal(joined(ip, agent, "code1")));

            assertThat(picker.hash("code1", ip, agent)).as("%s %s", ip, agent).isEqualTo(expected);
        }
    }

    @Test
    void beforeTheKeyIsKnownTheBucketIsThePlainSha256OfTheSameInput() throws Exception {
        VariantPicker picker = new VariantPicker();
        for (Object[] input : inputs()) {
            InetAddress ip = (InetAddress) input[0];
            String agent = (String) input[1];
            long expected = first8(MessageDigest.getInstance("SHA-256").digest(joined(ip, agent, "code1")));

            assertThat(picker.hash("code1", ip, agent)).as("%s %s", ip, agent).isEqualTo(expected);
        }
    }

    private static Object[][] inputs() throws Exception {
        return new Object[][] {
            {InetAddress.getByName("203.0.113.9"), "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)"},
            {InetAddress.getByName("2001:db8::1"), "agent with non-ASCII: Ünïcödé ✓"},
            {null, "no address"},
            {InetAddress.getByName("198.51.100.1"), null},
            {null, null}
        };
    }

    private static byte[] joined(InetAddress ip, String agent, String code) {
        return ((ip == null ? "" : ip.getHostAddress()) + "&" + (agent == null ? "" : agent) + "\n" + code)
                .getBytes(StandardCharsets.UTF_8);
    }

    private static long first8(byte[] digest) {
        return ByteBuffer.wrap(digest, 0, 8).getLong();
    }
}
