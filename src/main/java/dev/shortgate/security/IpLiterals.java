package dev.shortgate.security;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import inet.ipaddr.AddressStringParameters.RangeParameters;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.IPAddressStringParameters;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv6.IPv6Address;

/**
 * IP-literal hosts, parsed as browsers parse them (WHATWG URL Standard, "IPv4 parser" and "IPv6 parser") with the
 * IPAddress library (https://seancfoley.github.io/IPAddress/), written in their one canonical form, and judged
 * globally reachable or not. No DNS is ever involved.
 *
 * <p>The IPv4 parser accepts what browsers accept, so {@code 2130706433}, {@code 0x7f000001}, {@code 0177.0.0.1},
 * {@code 0x7f.1} and {@code 127.1} are all {@code 127.0.0.1}. IPv6 takes at most four hex digits a piece, an
 * embedded IPv4 address only in dotted decimal without leading zeros, and no zone.
 */
final class IpLiterals {

    /** WHATWG "ends in a number": the last label is decimal digits, or {@code 0x} and hex digits (maybe none). */
    private static final Pattern NUMBER = Pattern.compile("[0-9]+|0[xX][0-9a-fA-F]*");
    /** A part that is {@code 0x} alone: WHATWG reads it as 0, the library as a missing value. */
    private static final Pattern EMPTY_HEX = Pattern.compile("(?<=^|\\.)0[xX](?=\\.|$)");

    private static final IPAddressStringParameters IPV4 = ipv4();
    private static final IPAddressStringParameters IPV6 = ipv6();

    /** Not globally reachable (IANA IPv4 Special-Purpose Address Registry). */
    private static final List<IPAddress> NOT_GLOBAL_IPV4 = blocks(
            "0.0.0.0/8", // "this network", incl. 0.0.0.0
            "10.0.0.0/8", // private
            "100.64.0.0/10", // shared address space (CGNAT)
            "127.0.0.0/8", // loopback
            "169.254.0.0/16", // link-local, cloud metadata
            "172.16.0.0/12", // private
            "192.0.0.0/24", // IETF protocol assignments
            "192.0.2.0/24", // documentation
            "192.88.99.0/24", // deprecated 6to4 relay anycast
            "192.168.0.0/16", // private
            "198.18.0.0/15", // benchmarking
            "198.51.100.0/24", // documentation
            "203.0.113.0/24", // documentation
            "224.0.0.0/4", // multicast
            "240.0.0.0/4"); // reserved, incl. 255.255.255.255

    private static final IPAddress GLOBAL_UNICAST = blocks("2000::/3").get(0);
    private static final IPAddress NAT64 = blocks("64:ff9b::/96").get(0);

    /** The special-purpose blocks inside global unicast that are not globally reachable. */
    private static final List<IPAddress> NOT_GLOBAL_IPV6 = blocks(
            "2001::/23", // IETF protocol assignments, incl. Teredo
            "2001:db8::/32", // documentation
            "3ff0::/12", // documentation 3fff::/20, and the unallocated space around it
            "5f00::/16"); // SRv6 SIDs

    private IpLiterals() {}

    /** WHATWG "ends in a number": whether a browser treats this ASCII host as IPv4. A trailing dot is ignored. */
    static boolean endsInANumber(String host) {
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        return NUMBER.matcher(h.substring(h.lastIndexOf('.') + 1)).matches();
    }

    /**
     * The IPv4 address of a host that {@linkplain #endsInANumber ends in a number}, or {@code null} when it is no
     * valid address (a browser refuses such a URL too).
     */
    static IPv4Address parseIpv4(String host) {
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        IPAddress address = new IPAddressString(EMPTY_HEX.matcher(h).replaceAll("0"), IPV4).getAddress();
        return address == null ? null : address.toIPv4();
    }

    /** The IPv6 address written between a URL host's brackets, or {@code null} when it is invalid. */
    static IPv6Address parseIpv6(String inBrackets) {
        IPAddress address = new IPAddressString(inBrackets, IPV6).getAddress();
        return address == null ? null : address.toIPv6();
    }

    /**
     * The host as a URL writes it: IPv4 in dotted decimal, IPv6 in brackets, lower-case, its first longest run of
     * two or more zero pieces as {@code ::} (the WHATWG serializer and RFC 5952 agree).
     */
    static String host(IPAddress address) {
        return address.isIPv6() ? "[" + address.toCanonicalString() + "]" : address.toCanonicalString();
    }

    /**
     * Whether the address is globally reachable. IPv4: none of the special-purpose blocks above. IPv6: only global
     * unicast {@code 2000::/3} can be, minus its special-purpose blocks; IPv4-mapped {@code ::ffff:0:0/96}, NAT64
     * {@code 64:ff9b::/96} and 6to4 {@code 2002::/16} addresses are judged by the IPv4 address they carry.
     */
    static boolean isPublic(IPAddress address) {
        if (address.isIPv4()) {
            return NOT_GLOBAL_IPV4.stream().noneMatch(block -> block.contains(address));
        }
        IPv6Address v6 = address.toIPv6();
        if (v6.isIPv4Mapped() || NAT64.contains(v6)) {
            return isPublic(v6.getEmbeddedIPv4Address());
        }
        if (v6.is6To4()) {
            return isPublic(v6.get6To4IPv4Address());
        }
        return GLOBAL_UNICAST.contains(v6) && NOT_GLOBAL_IPV6.stream().noneMatch(block -> block.contains(v6));
    }

    /** Browsers' IPv4 forms: one to four parts, each decimal, {@code 0x} hex or leading-zero octal. */
    private static IPAddressStringParameters ipv4() {
        IPAddressStringParameters.Builder builder = strict().allowIPv6(false).allowSingleSegment(true);
        builder.getIPv4AddressParametersBuilder()
                .allow_inet_aton(true)
                .allow_inet_aton_hex(true)
                .allow_inet_aton_octal(true)
                .allow_inet_aton_joined_segments(true)
                .allow_inet_aton_leading_zeros(true)
                .allow_inet_aton_single_segment_mask(false)
                .allow_inet_aton_extraneous_digits(false)
                .allowLeadingZeros(true)
                .allowUnlimitedLeadingZeros(true)
                .allowBinary(false);
        return builder.toParams();
    }

    /** IPv6 as browsers take it: up to four hex digits a piece, an embedded IPv4 in plain dotted decimal, no zone. */
    private static IPAddressStringParameters ipv6() {
        IPAddressStringParameters.Builder builder = strict().allowIPv4(false).allowSingleSegment(false);
        builder.getIPv6AddressParametersBuilder()
                .allowZone(false)
                .allowEmptyZone(false)
                .allowMixed(true)
                .allowBase85(false)
                .allowBinary(false)
                .allowLeadingZeros(true)
                .allowUnlimitedLeadingZeros(false);
        builder.getIPv6AddressParametersBuilder()
                .getEmbeddedIPv4AddressParametersBuilder()
                .allow_inet_aton(false)
                .allowLeadingZeros(false)
                .allowUnlimitedLeadingZeros(false)
                .allowBinary(false);
        return builder.toParams();
    }

    /** Only plain addresses: no prefix, mask, range, wildcard or empty string. */
    private static IPAddressStringParameters.Builder strict() {
        return new IPAddressStringParameters.Builder()
                .allowEmpty(false)
                .allowAll(false)
                .allowPrefix(false)
                .allowMask(false)
                .allowPrefixOnly(false)
                .setRangeOptions(RangeParameters.NO_RANGE);
    }

    private static List<IPAddress> blocks(String... cidrs) {
        return Arrays.stream(cidrs)
                .map(cidr -> new IPAddressString(cidr).getAddress().toPrefixBlock())
                .toList();
    }
}
