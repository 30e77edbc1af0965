package dev.shortgate.rules;

import java.net.InetAddress;

import inet.ipaddr.AddressStringParameters.RangeParameters;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.IPAddressStringParameters;

/**
 * An {@code ip-address} condition's value: a single address ({@code 100.200.80.40}), a CIDR block
 * ({@code 192.168.10.0/24}) or a wildcard pattern ({@code 11.22.*.*}, wildcards anywhere), IPv4 as in Shlink and
 * IPv6 too ({@code 2001:db8::/32}, {@code 2001:db8:*::1}). Parsed with the IPAddress library the URL policy already
 * uses, strictly: no {@code inet_aton} forms, no ranges other than {@code *}, no masks, no zone, never a DNS look-up.
 */
final class IpPattern {

    private static final IPAddressStringParameters STRICT = strict();

    private final IPAddress block;

    private IpPattern(IPAddress block) {
        this.block = block;
    }

    /** The pattern, or {@code null} when {@code value} is none of the three forms. */
    static IpPattern parse(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        IPAddress address = new IPAddressString(value.trim(), STRICT).getAddress();
        if (address == null) {
            return null;
        }
        return new IpPattern(address.isPrefixed() ? address.toPrefixBlock() : address);
    }

    /** Whether the client address is in the pattern (an IPv4 pattern never matches an IPv6 client, and back). */
    boolean matches(IPAddress client) {
        return client != null && block.getIPVersion() == client.getIPVersion() && block.contains(client);
    }

    /** The client address in the library's form, or {@code null}. */
    static IPAddress of(InetAddress client) {
        return client == null ? null : new inet.ipaddr.IPAddressNetwork.IPAddressGenerator().from(client);
    }

    private static IPAddressStringParameters strict() {
        IPAddressStringParameters.Builder builder = new IPAddressStringParameters.Builder()
                .allowEmpty(false)
                .allowAll(false)
                .allowSingleSegment(false)
                .allowPrefix(true)
                .allowMask(false)
                .allowPrefixOnly(false)
                .setRangeOptions(RangeParameters.WILDCARD_ONLY);
        builder.getIPv4AddressParametersBuilder()
                .allow_inet_aton(false)
                .allowLeadingZeros(false)
                .allowBinary(false);
        builder.getIPv6AddressParametersBuilder()
                .allowZone(false)
                .allowEmptyZone(false)
                .allowBase85(false)
                .allowBinary(false);
        return builder.toParams();
    }
}
