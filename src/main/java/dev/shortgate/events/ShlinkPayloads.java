package dev.shortgate.events;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.link.Link;
import dev.shortgate.link.store.LinkRows;
import dev.shortgate.visit.RawVisit;
import dev.shortgate.visit.VisitTap;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shlink's updates ({@code PublishingUpdatesGenerator}) with Shlink's payloads: {@code {"shortUrl", "visit"}} for a
 * visit, on {@code new-visit/{shortCode}} and {@code new-visit}; {@code {"visit"}} for an orphan visit, on
 * {@code new-orphan-visit}, the visit with its {@code type}; {@code {"shortUrl"}} for a new short URL. A visit is
 * Shlink's {@code Visit::jsonSerialize}: referer, date, userAgent, visitLocation, potentialBot, visitedUrl and
 * redirectUrl. A visit of a link on another domain than the default one is published under its bare code (the topic,
 * {@code shortCode}) with that domain's host ({@code domain}, {@code shortUrl}, {@code visitedUrl}), as Shlink does;
 * an orphan visit is shown on the host of the domain its request came to (the base URL for the default domain).
 */
final class ShlinkPayloads {

    private final ShortUrls shortUrls;
    private final VisitTap.Describer describer;
    private final JsonMapper json;
    private final String origin;

    /** @param origin the base URL without a trailing {@code /}, that visited paths are joined to */
    ShlinkPayloads(ShortUrls shortUrls, VisitTap.Describer describer, JsonMapper json, String origin) {
        this.shortUrls = shortUrls;
        this.describer = describer;
        this.json = json;
        this.origin = origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin;
    }

    /**
     * The updates of these visits, in their order: each visit's short URL is read once for the batch
     * ({@link ShortUrls#ofCodes}), and each payload written once, the same text on each of its topics. A visit that
     * cannot be turned into updates (its code fails the store's check, its payload cannot be written) is left out
     * and told to {@code failed}; the others are not held back by it.
     */
    Mono<List<Update>> ofVisits(List<RawVisit> visits, Consumer<RuntimeException> failed) {
        Set<String> codes = new HashSet<>();
        for (RawVisit raw : visits) {
            if (raw.orphan() == null && LinkRows.isKey(raw.code())) {
                codes.add(raw.code());
            }
        }
        return shortUrls.ofCodes(codes).map(shown -> {
            List<Update> updates = new ArrayList<>(visits.size() * 2);
            for (RawVisit raw : visits) {
                try {
                    if (raw.orphan() != null) {
                        updates.add(ofOrphan(raw));
                    } else if (!codes.contains(raw.code())) {
                        failed.accept(new IllegalArgumentException("not a code: " + raw.code()));
                    } else {
                        ofLinkVisit(raw, shown.getOrDefault(raw.code(), ShortUrls.Shown.GONE), updates);
                    }
                } catch (RuntimeException e) {
                    failed.accept(e);
                }
            }
            return updates;
        });
    }

    private Update ofOrphan(RawVisit raw) {
        Map<String, Object> visit = visit(raw, visitedUrl(raw), null);
        visit.put("type", raw.orphan().value());
        return new Update(Topics.NEW_ORPHAN_VISIT, write(Map.of("visit", visit)), false);
    }

    private void ofLinkVisit(RawVisit raw, ShortUrls.Shown shortUrl, List<Update> updates) {
        Object longUrl = shortUrl.longUrl();
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("shortUrl", shortUrl.json(json));
        payload.put(
                "visit",
                visit(raw, shortUrls.urlOf(raw.code()), raw.redirectUrl() != null ? raw.redirectUrl() : longUrl));
        String text = write(payload);
        updates.add(new Update(Topics.newShortUrlVisit(DomainCodes.code(raw.code())), text, true));
        updates.add(new Update(Topics.NEW_VISIT, text, false));
    }

    /** The update of a new short URL. */
    Update ofNewLink(Link link) {
        return new Update(Topics.NEW_SHORT_URL, write(Map.of("shortUrl", shortUrls.ofNewLink(link))), false);
    }

    private Map<String, Object> visit(RawVisit raw, String visitedUrl, Object redirectUrl) {
        VisitTap.Describer.Description who = describer.describe(raw.ip(), raw.userAgent());
        Map<String, Object> visit = new LinkedHashMap<>();
        visit.put("referer", raw.referer() == null ? "" : raw.referer());
        visit.put("date", ShortUrls.date(raw.at()));
        visit.put("userAgent", raw.userAgent() == null ? "" : raw.userAgent());
        visit.put("visitLocation", location(who.country(), who.city()));
        visit.put("potentialBot", who.bot());
        visit.put("visitedUrl", visitedUrl);
        visit.put("redirectUrl", redirectUrl);
        return visit;
    }

    /** An orphan visit's URL: its path on the base URL, or on its domain's host when it came to another domain. */
    private String visitedUrl(RawVisit raw) {
        String url = raw.domainId() == 0
                ? origin + "/" + raw.code()
                : shortUrls.urlOf(DomainCodes.key(raw.domainId(), raw.code()));
        return raw.query() == null || raw.query().isEmpty() ? url : url + "?" + raw.query();
    }

    private static Map<String, Object> location(String country, String city) {
        if (country == null && city == null) {
            return null;
        }
        String code = country == null ? "" : country;
        Map<String, Object> location = new LinkedHashMap<>();
        location.put("countryCode", code);
        location.put("countryName", code.isEmpty() ? "" : new Locale("", code).getDisplayCountry(Locale.ENGLISH));
        location.put("regionName", "");
        location.put("cityName", city == null ? "" : city);
        location.put("latitude", 0.0);
        location.put("longitude", 0.0);
        location.put("timezone", "");
        return location;
    }

    private String write(Object payload) {
        return json.writeValueAsString(payload);
    }
}
