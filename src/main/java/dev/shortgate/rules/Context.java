package dev.shortgate.rules;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.shortgate.visit.enrich.GeoLocator;
import inet.ipaddr.IPAddress;

/**
 * One request while its rules are tried: each fact is worked out the first time a condition needs it and then kept,
 * so a request with five rules parses its query, its languages and its agent at most once, and looks up GeoIP at
 * most once.
 */
final class Context {

    final RuleRequest request;
    final Instant now;
    private final Agents agents;
    private final AcceptedLanguages acceptedLanguages;
    private final GeoLocator geo;
    private Agent agent;
    private List<String[]> languages;
    private Map<String, String> query;
    private IPAddress ip;
    private boolean ipRead;
    private GeoLocator.Location location;

    Context(RuleRequest request, Instant now, Agents agents, AcceptedLanguages acceptedLanguages, GeoLocator geo) {
        this.request = request;
        this.now = now;
        this.agents = agents;
        this.acceptedLanguages = acceptedLanguages;
        this.geo = geo;
    }

    Agent agent() {
        if (agent == null) {
            agent = agents.of(request.userAgent());
        }
        return agent;
    }

    List<String[]> languages() {
        if (languages == null) {
            languages = acceptedLanguages.of(request.acceptLanguage());
        }
        return languages;
    }

    Map<String, String> query() {
        if (query == null) {
            query = QueryParams.parse(request.rawQuery());
        }
        return query;
    }

    IPAddress ip() {
        if (!ipRead) {
            ipRead = true;
            ip = IpPattern.of(request.clientIp());
        }
        return ip;
    }

    GeoLocator.Location location() {
        if (location == null) {
            location = geo.locate(request.clientIp());
        }
        return location;
    }
}
