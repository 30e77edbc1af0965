package dev.shortgate.visit.enrich;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;

class IpAnonymizerTest {

    @Test
    void ipv4KeepsItsSlash24() throws Exception {
        assertThat(IpAnonymizer.anonymise(InetAddress.getByName("81.2.69.142")).getHostAddress())
                .isEqualTo("81.2.69.0");
        assertThat(IpAnonymizer.anonymise(InetAddress.getByName("255.255.255.255"))
                        .getHostAddress())
                .isEqualTo("255.255.255.0");
    }

    @Test
    void ipv6KeepsItsSlash64() throws Exception {
        assertThat(IpAnonymizer.anonymise(InetAddress.getByName("2001:db8:85a3:8d3:1319:8a2e:370:7348")))
                .isEqualTo(InetAddress.getByName("2001:db8:85a3:8d3::"));
        assertThat(IpAnonymizer.anonymise(InetAddress.getByName("2001:db8::ffff:ffff:ffff:ffff")))
                .isEqualTo(InetAddress.getByName("2001:db8::"));
    }

    @Test
    void anonymisingDoesNotChangeTheGivenAddress() throws Exception {
        InetAddress original = InetAddress.getByName("10.20.30.40");
        IpAnonymizer.anonymise(original);
        assertThat(original.getHostAddress()).isEqualTo("10.20.30.40");
    }
}
