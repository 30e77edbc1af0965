package dev.shortgate.security;

/**
 * Parses IP-literal hosts the way browsers do (WHATWG URL Standard, "IPv4 parser" and "IPv6 parser"), writes them
 * in their one canonical form, and says whether an address is globally reachable. No DNS is ever involved.
 *
 * <p>The IPv4 parser accepts what browsers accept, so {@code 2130706433}, {@code 0x7f000001}, {@code 0177.0.0.1},
 * {@code 0x7f.1} and {@code 127.1} are all {@code 127.0.0.1}.
 */
final class IpLiterals {

    /** Result of {@link #parseIpv4}: not a number at all, so the host is a domain name. */
    static final long NOT_NUMERIC = -1;
    /** Result of {@link #parseIpv4}: looks numeric, but is no valid address (a browser refuses it too). */
    static final long INVALID = -2;

    private IpLiterals() {
    }

    /**
     * WHATWG "ends in a number": whether a browser would treat this ASCII host as an IPv4 address. A trailing dot
     * is ignored.
     */
    static boolean endsInANumber(String host) {
        if (host.isEmpty()) {
            return false;
        }
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String last = h.substring(h.lastIndexOf('.') + 1);
        if (!last.isEmpty() && last.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return true;
        }
        return parseIpv4Number(last) >= 0;
    }

    /**
     * WHATWG IPv4 parser, for a host that {@linkplain #endsInANumber ends in a number}: the address as an unsigned
     * 32-bit value, or {@link #INVALID}; {@link #NOT_NUMERIC} if the host does not end in a number.
     */
    static long parseIpv4(String host) {
        if (!endsInANumber(host)) {
            return NOT_NUMERIC;
        }
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String[] parts = h.split("\\.", -1);
        if (parts.length > 4) {
            return INVALID;
        }
        long[] numbers = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            long n = parseIpv4Number(parts[i]);
            if (n < 0) {
                return INVALID;
            }
            numbers[i] = n;
        }
        for (int i = 0; i < numbers.length - 1; i++) {
            if (numbers[i] > 255) {
                return INVALID;
            }
        }
        long last = numbers[numbers.length - 1];
        if (last >= 1L << (8 * (5 - numbers.length))) {
            return INVALID;
        }
        long address = last;
        for (int i = 0; i < numbers.length - 1; i++) {
            address += numbers[i] << (8 * (3 - i));
        }
        return address;
    }

    /** WHATWG "IPv4 number parser": decimal, {@code 0x} hex or leading-zero octal; -1 when not a number. */
    private static long parseIpv4Number(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        int radix = 10;
        String digits = s;
        if (s.length() >= 2 && (s.startsWith("0x") || s.startsWith("0X"))) {
            radix = 16;
            digits = s.substring(2);
        } else if (s.length() >= 2 && s.charAt(0) == '0') {
            radix = 8;
            digits = s.substring(1);
        }
        if (digits.isEmpty()) {
            return 0;
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = Character.digit(digits.charAt(i), radix);
            if (d < 0 || digits.charAt(i) > 'z') {
                return -1;
            }
            value = value * radix + d;
            if (value > 0xFFFF_FFFFL) {
                // Still a number, but too big for any part; keep the value out of range without overflowing.
                value = 0x1_0000_0000L;
            }
        }
        return value;
    }

    static String formatIpv4(long address) {
        return ((address >> 24) & 0xFF) + "." + ((address >> 16) & 0xFF) + "." + ((address >> 8) & 0xFF) + "."
                + (address & 0xFF);
    }

    /**
     * WHATWG IPv6 parser for the text between the brackets: eight 16-bit pieces, or {@code null} if invalid
     * (zone identifiers such as {@code %25eth0} are invalid, as in browsers).
     */
    static int[] parseIpv6(String input) {
        int[] address = new int[8];
        int pieceIndex = 0;
        int compress = -1;
        int pointer = 0;
        int length = input.length();
        if (pointer < length && input.charAt(pointer) == ':') {
            if (pointer + 1 >= length || input.charAt(pointer + 1) != ':') {
                return null;
            }
            pointer += 2;
            pieceIndex++;
            compress = pieceIndex;
        }
        while (pointer < length) {
            if (pieceIndex == 8) {
                return null;
            }
            if (input.charAt(pointer) == ':') {
                if (compress != -1) {
                    return null;
                }
                pointer++;
                pieceIndex++;
                compress = pieceIndex;
                continue;
            }
            int value = 0;
            int digits = 0;
            while (digits < 4 && pointer < length && isHex(input.charAt(pointer))) {
                value = value * 16 + Character.digit(input.charAt(pointer), 16);
                pointer++;
                digits++;
            }
            if (pointer < length && input.charAt(pointer) == '.') {
                if (digits == 0) {
                    return null;
                }
                pointer -= digits;
                if (pieceIndex > 6) {
                    return null;
                }
                int numbersSeen = 0;
                while (pointer < length) {
                    int ipv4Piece = -1;
                    if (numbersSeen > 0) {
                        if (input.charAt(pointer) == '.' && numbersSeen < 4) {
                            pointer++;
                        } else {
                            return null;
                        }
                    }
                    if (pointer >= length || !isDigit(input.charAt(pointer))) {
                        return null;
                    }
                    while (pointer < length && isDigit(input.charAt(pointer))) {
                        int number = input.charAt(pointer) - '0';
                        if (ipv4Piece == -1) {
                            ipv4Piece = number;
                        } else if (ipv4Piece == 0) {
                            return null;
                        } else {
                            ipv4Piece = ipv4Piece * 10 + number;
                        }
                        if (ipv4Piece > 255) {
                            return null;
                        }
                        pointer++;
                    }
                    address[pieceIndex] = address[pieceIndex] * 0x100 + ipv4Piece;
                    numbersSeen++;
                    if (numbersSeen == 2 || numbersSeen == 4) {
                        pieceIndex++;
                    }
                }
                if (numbersSeen != 4) {
                    return null;
                }
                break;
            } else if (pointer < length && input.charAt(pointer) == ':') {
                pointer++;
                if (pointer >= length) {
                    return null;
                }
            } else if (pointer < length) {
                return null;
            }
            address[pieceIndex] = value;
            pieceIndex++;
        }
        if (compress != -1) {
            int swaps = pieceIndex - compress;
            pieceIndex = 7;
            while (pieceIndex != 0 && swaps > 0) {
                int other = compress + swaps - 1;
                int tmp = address[pieceIndex];
                address[pieceIndex] = address[other];
                address[other] = tmp;
                pieceIndex--;
                swaps--;
            }
        } else if (pieceIndex != 8) {
            return null;
        }
        return address;
    }

    /** WHATWG IPv6 serializer: lower-case hex, the first longest run of two or more zero pieces written as ::. */
    static String formatIpv6(int[] address) {
        int compress = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            if (address[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && address[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestLength = j - i;
                compress = i;
            }
            i = j;
        }
        StringBuilder out = new StringBuilder(41);
        boolean ignore0 = false;
        for (int i = 0; i < 8; i++) {
            if (ignore0 && address[i] == 0) {
                continue;
            }
            ignore0 = false;
            if (compress == i) {
                out.append(i == 0 ? "::" : ":");
                ignore0 = true;
                continue;
            }
            out.append(Integer.toHexString(address[i]));
            if (i != 7) {
                out.append(':');
            }
        }
        return out.toString();
    }

    /**
     * Whether an IPv4 address is globally reachable: not loopback, private, link-local (incl. cloud metadata
     * 169.254.169.254), shared/CGNAT, "this network", IETF protocol assignments, documentation, benchmarking,
     * multicast, reserved or broadcast (IANA IPv4 Special-Purpose Address Registry).
     */
    static boolean isPublicIpv4(long a) {
        return !(inV4(a, 0x00000000L, 8)      // 0.0.0.0/8 "this network", incl. 0.0.0.0
                || inV4(a, 0x0A000000L, 8)    // 10.0.0.0/8 private
                || inV4(a, 0x64400000L, 10)   // 100.64.0.0/10 shared address space (CGNAT)
                || inV4(a, 0x7F000000L, 8)    // 127.0.0.0/8 loopback
                || inV4(a, 0xA9FE0000L, 16)   // 169.254.0.0/16 link-local, cloud metadata
                || inV4(a, 0xAC100000L, 12)   // 172.16.0.0/12 private
                || inV4(a, 0xC0000000L, 24)   // 192.0.0.0/24 IETF protocol assignments
                || inV4(a, 0xC0000200L, 24)   // 192.0.2.0/24 documentation
                || inV4(a, 0xC0586300L, 24)   // 192.88.99.0/24 deprecated 6to4 relay anycast
                || inV4(a, 0xC0A80000L, 16)   // 192.168.0.0/16 private
                || inV4(a, 0xC6120000L, 15)   // 198.18.0.0/15 benchmarking
                || inV4(a, 0xC6336400L, 24)   // 198.51.100.0/24 documentation
                || inV4(a, 0xCB007100L, 24)   // 203.0.113.0/24 documentation
                || inV4(a, 0xE0000000L, 4)    // 224.0.0.0/4 multicast
                || inV4(a, 0xF0000000L, 4));  // 240.0.0.0/4 reserved, incl. 255.255.255.255
    }

    /**
     * Whether an IPv6 address is globally reachable. Only global unicast {@code 2000::/3} can be, minus its
     * special-purpose blocks; IPv4-mapped {@code ::ffff:0:0/96}, NAT64 {@code 64:ff9b::/96} and 6to4
     * {@code 2002::/16} addresses are judged by the IPv4 address they carry. Everything else (loopback,
     * unspecified, IPv4-compatible, unique-local {@code fc00::/7}, link-local {@code fe80::/10}, site-local,
     * multicast, discard, unassigned) is not.
     */
    static boolean isPublicIpv6(int[] p) {
        if (p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 0 && p[4] == 0 && p[5] == 0xFFFF) {
            return isPublicIpv4(embedded(p[6], p[7]));           // ::ffff:a.b.c.d
        }
        if (p[0] == 0x64 && p[1] == 0xFF9B && p[2] == 0 && p[3] == 0 && p[4] == 0 && p[5] == 0) {
            return isPublicIpv4(embedded(p[6], p[7]));           // 64:ff9b::a.b.c.d (NAT64)
        }
        if (p[0] == 0x2002) {
            return isPublicIpv4(embedded(p[1], p[2]));           // 2002:AABB:CCDD::/48 (6to4)
        }
        if ((p[0] & 0xE000) != 0x2000) {
            return false;                                        // outside global unicast 2000::/3
        }
        return !(p[0] == 0x2001 && p[1] < 0x0200                 // 2001::/23 IETF assignments, incl. Teredo
                || p[0] == 0x2001 && p[1] == 0x0DB8              // 2001:db8::/32 documentation
                || (p[0] & 0xFFF0) == 0x3FF0                     // 3fff::/20 documentation
                || p[0] == 0x5F00);                              // 5f00::/16 SRv6 SIDs
    }

    private static long embedded(int high, int low) {
        return ((long) high << 16) | low;
    }

    private static boolean inV4(long address, long network, int prefix) {
        long mask = (0xFFFF_FFFFL << (32 - prefix)) & 0xFFFF_FFFFL;
        return (address & mask) == network;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
