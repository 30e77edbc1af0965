package dev.shortgate.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.springframework.modulith.NamedInterface;

/**
 * The one place that decides which address a request came from.
 *
 * <p>The socket peer is the answer unless it is one of our trusted proxies (the ingress, a load balancer). Only
 * then is {@code X-Forwarded-For} read, from the right: each hop a trusted proxy appended is skipped, and the
 * right-most hop that is not a trusted proxy is the client. Whatever is left of it was written by the client and
 * proves nothing. A request that reaches us directly can therefore not choose its address by sending the header,
 * and {@code Forwarded} is never read (Spring's own forwarded-header handling is off:
 * {@code server.forward-headers-strategy=none}).
 *
 * <p>Hops are parsed as IP literals only; a hop that is not one ends the walk at the last trusted proxy, and no
 * value ever triggers a DNS look-up.
 */
@NamedInterface("clients")
public final class ClientIpResolver {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV4_WITH_PORT = Pattern.compile("(\\d{1,3}(?:\\.\\d{1,3}){3}):\\d{1,5}");

    private final List<Cidr> trusted;

    /**
     * @param trustedProxies CIDR blocks ({@code 10.0.0.0/8}, {@code fd00::/8}) or single addresses of the proxies
     *                       in front of us
     * @throws IllegalArgumentException naming the first entry that is not a valid CIDR block
     */
    public ClientIpResolver(List<String> trustedProxies) {
        List<Cidr> parsed = new ArrayList<>(trustedProxies.size());
        for (String entry : trustedProxies) {
            parsed.add(Cidr.parse(entry));
        }
        this.trusted = List.copyOf(parsed);
    }

    /** The client address of a request: its socket peer, or the right-most untrusted X-Forwarded-For hop. */
    public InetAddress resolve(org.springframework.web.reactive.function.server.ServerRequest request) {
        InetAddress peer = request.remoteAddress()
                .map(java.net.InetSocketAddress::getAddress)
                .orElse(null);
        return resolve(peer, request.headers().asHttpHeaders().get("X-Forwarded-For"));
    }

    /** The same for a request seen by a {@code WebFilter}. */
    public InetAddress resolve(org.springframework.http.server.reactive.ServerHttpRequest request) {
        java.net.InetSocketAddress remote = request.getRemoteAddress();
        return resolve(
                remote == null ? null : remote.getAddress(),
                request.getHeaders().get("X-Forwarded-For"));
    }

    /**
     * The key a per-client rate limit counts under: an IPv4 address, or an IPv6 /64 (one subscriber's usual
     * block, so a client cannot escape its limit by rotating addresses inside it); {@code "unknown"} for none.
     */
    public static String rateLimitKey(InetAddress ip) {
        if (ip == null) {
            return "unknown";
        }
        byte[] bytes = ip.getAddress();
        if (bytes.length == 16) {
            return java.util.HexFormat.of().formatHex(bytes, 0, 8) + "::/64";
        }
        return ip.getHostAddress();
    }

    /**
     * The client's address.
     *
     * @param peer         the socket peer, or {@code null} when unknown
     * @param forwardedFor every {@code X-Forwarded-For} header value, in order (each may hold a comma-separated list)
     * @return the client address, or {@code null} when the peer is unknown
     */
    public InetAddress resolve(InetAddress peer, List<String> forwardedFor) {
        if (peer == null) {
            return null;
        }
        InetAddress current = normalise(peer);
        if (!isTrusted(current) || forwardedFor == null || forwardedFor.isEmpty()) {
            return current;
        }
        List<String> hops = new ArrayList<>();
        for (String value : forwardedFor) {
            for (String hop : value.split(",")) {
                hops.add(hop.trim());
            }
        }
        for (int i = hops.size() - 1; i >= 0; i--) {
            InetAddress hop = parseLiteral(hops.get(i));
            if (hop == null) {
                return current;
            }
            current = hop;
            if (!isTrusted(hop)) {
                return hop;
            }
        }
        return current;
    }

    /** Whether this address lies in one of the trusted-proxy blocks. */
    public boolean isTrusted(InetAddress address) {
        byte[] bytes = normalise(address).getAddress();
        for (Cidr cidr : trusted) {
            if (cidr.contains(bytes)) {
                return true;
            }
        }
        return false;
    }

    /** IPv4-mapped IPv6 addresses ({@code ::ffff:1.2.3.4}) become plain IPv4, and scope ids are dropped. */
    static InetAddress normalise(InetAddress address) {
        try {
            return InetAddress.getByAddress(address.getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An IP literal, optionally bracketed or with a port, or {@code null}; never a host name look-up. */
    static InetAddress parseLiteral(String raw) {
        String s = raw.trim();
        if (s.isEmpty()) {
            return null;
        }
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                return null;
            }
            s = s.substring(1, close);
        } else {
            var withPort = IPV4_WITH_PORT.matcher(s);
            if (withPort.matches()) {
                s = withPort.group(1);
            }
        }
        boolean v4 = IPV4.matcher(s).matches();
        boolean v6 = !v4
                && s.indexOf(':') >= 0
                && s.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.');
        if (!v4 && !v6) {
            return null;
        }
        if (v4) {
            for (String part : s.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return null;
                }
            }
        }
        try {
            return normalise(InetAddress.getByName(s));
        } catch (UnknownHostException | IllegalArgumentException e) {
            return null;
        }
    }

    /** A network block: the address bytes and how many leading bits must match. */
    record Cidr(byte[] network, int prefix) {

        static Cidr parse(String entry) {
            String text = entry == null ? "" : entry.trim();
            int slash = text.indexOf('/');
            String address = slash < 0 ? text : text.substring(0, slash);
            InetAddress parsed = parseLiteral(address);
            if (parsed == null
                    || address.contains("[")
                    || IPV4_WITH_PORT.matcher(address).matches()) {
                throw new IllegalArgumentException("Trusted proxy '" + entry
                        + "' is not an IP address or CIDR block such as 10.0.0.0/8 or fd00::/8");
            }
            byte[] network = parsed.getAddress();
            int max = network.length * 8;
            int prefix = max;
            if (slash >= 0) {
                String bits = text.substring(slash + 1);
                if (!bits.matches("\\d{1,3}") || Integer.parseInt(bits) > max) {
                    throw new IllegalArgumentException(
                            "Trusted proxy '" + entry + "' has an invalid prefix length;" + " expected 0 to " + max);
                }
                prefix = Integer.parseInt(bits);
            }
            return new Cidr(network, prefix);
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int whole = prefix / 8;
            for (int i = 0; i < whole; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (address[whole] & mask) == (network[whole] & mask);
        }
    }
}
