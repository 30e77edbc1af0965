package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;

import org.junit.jupiter.api.Test;

class ClientIpResolverTest {

    private final ClientIpResolver resolver = new ClientIpResolver(List.of("10.0.0.0/8", "192.168.1.7", "fd00::/8"));

    @Test
    void directClientSpoofingForwardedForGetsItsRealAddress() throws Exception {
        InetAddress peer = InetAddress.getByName("203.0.113.9");

        assertThat(resolver.resolve(peer, List.of("1.2.3.4"))).isEqualTo(peer);
    }

    @Test
    void requestWithoutHeaderFromTrustedProxyIsTheProxy() throws Exception {
        InetAddress proxy = InetAddress.getByName("10.1.2.3");

        assertThat(resolver.resolve(proxy, null)).isEqualTo(proxy);
        assertThat(resolver.resolve(proxy, List.of())).isEqualTo(proxy);
    }

    @Test
    void trustedProxyHopIsSkippedAndRightMostUntrustedHopIsTheClient() throws Exception {
        InetAddress proxy = InetAddress.getByName("10.1.2.3");

        // The client claimed 1.2.3.4; the ingress appended the real peer 198.51.100.20; an inner proxy 10.9.9.9.
        assertThat(resolver.resolve(proxy, List.of("1.2.3.4, 198.51.100.20, 10.9.9.9")))
                .isEqualTo(InetAddress.getByName("198.51.100.20"));
    }

    @Test
    void severalHeaderLinesAreReadAsOneListInOrder() throws Exception {
        InetAddress proxy = InetAddress.getByName("192.168.1.7");

        assertThat(resolver.resolve(proxy, List.of("1.2.3.4", "198.51.100.20")))
                .isEqualTo(InetAddress.getByName("198.51.100.20"));
    }

    @Test
    void whenEveryHopIsTrustedTheLeftMostIsTheClient() throws Exception {
        InetAddress proxy = InetAddress.getByName("10.1.2.3");

        assertThat(resolver.resolve(proxy, List.of("10.0.0.5, 10.0.0.6"))).isEqualTo(InetAddress.getByName("10.0.0.5"));
    }

    @Test
    void garbageHopEndsTheWalkAtTheLastTrustedAddress() throws Exception {
        InetAddress proxy = InetAddress.getByName("10.1.2.3");

        assertThat(resolver.resolve(proxy, List.of("1.2.3.4, example.com"))).isEqualTo(proxy);
        assertThat(resolver.resolve(proxy, List.of("1.2.3.4, 999.1.1.1"))).isEqualTo(proxy);
        assertThat(resolver.resolve(proxy, List.of("1.2.3.4, unknown, 10.0.0.8")))
                .isEqualTo(InetAddress.getByName("10.0.0.8"));
    }

    @Test
    void hopsWithPortsOrBracketsAreUnderstood() throws Exception {
        InetAddress proxy = InetAddress.getByName("10.1.2.3");

        assertThat(resolver.resolve(proxy, List.of("198.51.100.20:4711")))
                .isEqualTo(InetAddress.getByName("198.51.100.20"));
        assertThat(resolver.resolve(proxy, List.of("[2001:db8::1]:443")))
                .isEqualTo(InetAddress.getByName("2001:db8::1"));
        assertThat(resolver.resolve(proxy, List.of("2001:db8::2"))).isEqualTo(InetAddress.getByName("2001:db8::2"));
    }

    @Test
    void ipv6ProxiesAndIpv4MappedPeersMatchTheirBlocks() throws Exception {
        assertThat(resolver.isTrusted(InetAddress.getByName("fd12:3456::1"))).isTrue();
        assertThat(resolver.isTrusted(InetAddress.getByName("fe80::1"))).isFalse();
        assertThat(resolver.isTrusted(InetAddress.getByAddress(
                        new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 0, 0, 1})))
                .isTrue();
        assertThat(resolver.isTrusted(InetAddress.getByName("192.168.1.7"))).isTrue();
        assertThat(resolver.isTrusted(InetAddress.getByName("192.168.1.8"))).isFalse();
    }

    @Test
    void prefixBoundariesAreExact() throws Exception {
        ClientIpResolver odd = new ClientIpResolver(List.of("172.16.0.0/12", "0.0.0.0/0"));
        assertThat(odd.isTrusted(InetAddress.getByName("8.8.8.8"))).isTrue();
        ClientIpResolver twelve = new ClientIpResolver(List.of("172.16.0.0/12"));
        assertThat(twelve.isTrusted(InetAddress.getByName("172.31.255.255"))).isTrue();
        assertThat(twelve.isTrusted(InetAddress.getByName("172.32.0.0"))).isFalse();
        assertThat(twelve.isTrusted(InetAddress.getByName("172.15.255.255"))).isFalse();
    }

    @Test
    void noTrustedProxiesMeansTheHeaderIsNeverRead() throws Exception {
        ClientIpResolver none = new ClientIpResolver(List.of());
        InetAddress peer = InetAddress.getByName("10.1.2.3");

        assertThat(none.resolve(peer, List.of("1.2.3.4"))).isEqualTo(peer);
        assertThat(none.resolve(null, List.of("1.2.3.4"))).isNull();
    }

    @Test
    void invalidTrustedProxyEntriesAreRejectedByName() {
        assertThatThrownBy(() -> new ClientIpResolver(List.of("10.0.0.0/33")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("10.0.0.0/33");
        assertThatThrownBy(() -> new ClientIpResolver(List.of("proxy.internal")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("proxy.internal");
        assertThatThrownBy(() -> new ClientIpResolver(List.of("fd00::/129")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fd00::/129");
        assertThatThrownBy(() -> new ClientIpResolver(List.of("10.0.0.0/x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClientIpResolver(List.of(""))).isInstanceOf(IllegalArgumentException.class);
    }
}
