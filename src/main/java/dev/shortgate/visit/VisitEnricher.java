package dev.shortgate.visit;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;

/**
 * Turns raw visits into rows: client id, IP anonymisation, user agent parsing and geolocation. It does CPU work
 * and file reads, so the writer calls it on a worker thread, never on the event loop.
 */
final class VisitEnricher {

    private final Supplier<UserAgentParser> parser;
    private final GeoLocator geo;
    private final boolean storeRawIp;

    /** @param parser supplies the (expensive, shared) parser, or null while it cannot be built */
    VisitEnricher(Supplier<UserAgentParser> parser, GeoLocator geo, boolean storeRawIp) {
        this.parser = parser;
        this.geo = geo;
        this.storeRawIp = storeRawIp;
    }

    List<Visit> enrich(List<RawVisit> batch) {
        UserAgentParser agents = parser.get();
        List<Visit> rows = new ArrayList<>(batch.size());
        for (RawVisit raw : batch) {
            rows.add(enrich(raw, agents));
        }
        return rows;
    }

    private Visit enrich(RawVisit raw, UserAgentParser agents) {
        InetAddress ip = raw.ip();
        UserAgentParser.Parsed agent = agents == null ? UserAgentParser.unparsed(raw.userAgent())
                : agents.parse(raw.userAgent());
        GeoLocator.Location location = geo.locate(ip);
        String storedIp = ip == null ? null : (storeRawIp ? ip : IpAnonymizer.anonymise(ip)).getHostAddress();
        return new Visit(raw.id(), raw.code(), raw.at(), clientId(ip, raw.userAgent()), storedIp, raw.userAgent(),
                raw.referer(), location.country(), location.city(), agent.browser(), agent.browserVersion(),
                agent.os(), agent.deviceClass(), agent.bot());
    }

    /** SHA-256 of the raw IP, {@code &} and the user agent, as 64 hex digits (seed 002 used SHA-1). */
    static String clientId(InetAddress ip, String userAgent) {
        String input = (ip == null ? "" : ip.getHostAddress()) + "&" + (userAgent == null ? "" : userAgent);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(input.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
