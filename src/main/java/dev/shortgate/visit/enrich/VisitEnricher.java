package dev.shortgate.visit.enrich;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.Visit;
import dev.shortgate.visit.VisitTap;
import dev.shortgate.visit.Visitor;

/**
 * Turns raw visits into rows: client id, IP anonymisation, user agent parsing and geolocation. It does CPU work
 * and file reads, so the writer calls it on a worker thread, never on the event loop.
 */
public final class VisitEnricher implements VisitTap.Describer {

    private final Supplier<UserAgentParser> parser;
    private final GeoLocator geo;
    private final boolean storeRawIp;

    /** @param parser supplies the (expensive, shared) parser, or null while it cannot be built */
    public VisitEnricher(Supplier<UserAgentParser> parser, GeoLocator geo, boolean storeRawIp) {
        this.parser = parser;
        this.geo = geo;
        this.storeRawIp = storeRawIp;
    }

    /** The user agent's browser, OS, device class and bot flag (Yauaa, cached); call it on a worker thread. */
    public UserAgentParser.Parsed agent(String userAgent) {
        UserAgentParser agents = parser.get();
        return agents == null ? UserAgentParser.unparsed(userAgent) : agents.parse(userAgent);
    }

    /** The ISO country of an address or network (GeoIP2, cached), or {@code null}; call it on a worker thread. */
    public String country(InetAddress address) {
        return geo.locate(address).country();
    }

    /** GeoIP (in memory) and the bot heuristic, without parsing the agent; call it on a worker thread. */
    @Override
    public Description describe(InetAddress ip, String userAgent) {
        GeoLocator.Location location = geo.locate(ip);
        return new Description(location.country(), location.city(), UserAgentParser.looksLikeBot(userAgent));
    }

    /** @param clientIdKey key of the client-id HMAC, shared by every pod */
    public List<Visit> enrich(List<RawVisit> batch, byte[] clientIdKey) {
        UserAgentParser agents = parser.get();
        Mac mac = hmac(clientIdKey);
        List<Visit> rows = new ArrayList<>(batch.size());
        for (RawVisit raw : batch) {
            rows.add(enrich(raw, agents, mac));
        }
        return rows;
    }

    private Visit enrich(RawVisit raw, UserAgentParser agents, Mac mac) {
        InetAddress ip = raw.ip();
        UserAgentParser.Parsed agent =
                agents == null ? UserAgentParser.unparsed(raw.userAgent()) : agents.parse(raw.userAgent());
        GeoLocator.Location location = geo.locate(ip);
        String storedIp = ip == null ? null : (storeRawIp ? ip : IpAnonymizer.anonymise(ip)).getHostAddress();
        return new Visit(
                raw.id(),
                raw.code(),
                raw.at(),
                clientId(mac, ip, raw.userAgent()),
                new Visitor(
                        storedIp,
                        raw.userAgent(),
                        raw.referer(),
                        location.country(),
                        location.city(),
                        agent.browser(),
                        agent.browserVersion(),
                        agent.os(),
                        agent.deviceClass(),
                        agent.bot()),
                raw.redirectUrl());
    }

    /**
     * HMAC-SHA256 of the raw IP, {@code &} and the user agent, as 64 hex digits, not a plain hash. A
     * plain hash would undo the IP anonymisation: the row also holds the user agent and the IP's /24, so the
     * missing octet could be found by hashing 256 guesses. Keyed, it cannot without the key.
     */
    static String clientId(Mac mac, InetAddress ip, String userAgent) {
        String input = (ip == null ? "" : ip.getHostAddress()) + "&" + (userAgent == null ? "" : userAgent);
        return HexFormat.of().formatHex(mac.doFinal(input.getBytes(StandardCharsets.UTF_8)));
    }

    static Mac hmac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }
}
