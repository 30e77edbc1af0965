package dev.shortgate.visit.enrich;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Cuts client addresses to their network: IPv4 to /24, IPv6 to /64. The host part becomes zero. */
public final class IpAnonymizer {

    private IpAnonymizer() {}

    public static InetAddress anonymise(InetAddress address) {
        byte[] bytes = address.getAddress();
        int keep = bytes.length == 4 ? 3 : 8;
        for (int i = keep; i < bytes.length; i++) {
            bytes[i] = 0;
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
