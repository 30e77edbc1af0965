package dev.shortgate.link.domain;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRequests;
import dev.shortgate.security.UrlPolicy;
import dev.shortgate.system.problem.ProblemException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Each domain's settings: its not-found redirects (Shlink's base URL, regular 404 and invalid short URL redirects)
 * and the redirect status a create on it gets when it names none. Stored in {@code domain_redirect} (the default
 * domain keyed {@code ''}, the others by host) so every pod applies the same ones, and held in memory per domain
 * id, so the redirect path reads a map and never the database. Each pod reads the rows again every
 * {@code shortgate.not-found-redirects.refresh}; a change saved through this pod applies here at once. A redirect a
 * domain has none of falls back to the configured default ({@link NotFoundRedirectsProperties}, Shlink's
 * {@code defaultRedirects}); neither means a 404. No domain's own redirects ever apply to another domain.
 */
@Component
public class DomainRedirects implements SmartLifecycle {

    /** The default domain's key in {@code domain_redirect}; other domains are keyed by their host. */
    static final String DEFAULT_DOMAIN = "";

    /** Longest redirect target stored. */
    public static final int MAX_LENGTH = 2048;

    /** The statuses a domain's default redirect status may be. */
    public static final Set<Integer> REDIRECT_STATUSES = Set.of(301, 302, 307, 308);

    private static final Logger log = LoggerFactory.getLogger(DomainRedirects.class);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

    /**
     * A domain's three redirects; {@code null} where there is none.
     *
     * @param baseUrl         where {@code GET /} goes
     * @param regular404      where another path that nothing serves goes
     * @param invalidShortUrl where an unknown short code goes
     */
    public record Redirects(String baseUrl, String regular404, String invalidShortUrl) {
        public static final Redirects NONE = new Redirects(null, null, null);

        /** Each of these, or where it has none, the other's. */
        Redirects or(Redirects fallback) {
            return new Redirects(
                    baseUrl != null ? baseUrl : fallback.baseUrl,
                    regular404 != null ? regular404 : fallback.regular404,
                    invalidShortUrl != null ? invalidShortUrl : fallback.invalidShortUrl);
        }
    }

    /**
     * A domain's own settings, as stored.
     *
     * @param redirects             its not-found redirects ({@code null}s where it has none of its own)
     * @param defaultRedirectStatus the status a create on the domain gets when it names none; {@code null} for
     *                              Shortgate's default, {@value Link#DEFAULT_REDIRECT_STATUS}
     */
    public record Settings(Redirects redirects, Integer defaultRedirectStatus) {
        public static final Settings NONE = new Settings(Redirects.NONE, null);

        /** The status a create on the domain gets when it names none. */
        public int redirectStatus() {
            return defaultRedirectStatus == null ? Link.DEFAULT_REDIRECT_STATUS : defaultRedirectStatus;
        }
    }

    /** What this pod holds for one domain: its stored settings and the redirects in effect. */
    private record Held(Settings stored, Redirects effective) {}

    private final DatabaseClient db;
    private final Domains domains;
    private final UrlPolicy urlPolicy;
    private final Clock clock;
    private final Duration refresh;
    private final Redirects defaults;
    private final Held none;

    /** By domain id; a domain with no row is not in it (then {@link #none} applies). */
    private volatile Map<Integer, Held> byDomain;

    private volatile Disposable refreshing;

    @Autowired
    DomainRedirects(
            DatabaseClient db,
            Domains domains,
            UrlPolicy urlPolicy,
            NotFoundRedirectsProperties properties,
            Clock clock) {
        this.db = db;
        this.domains = domains;
        this.urlPolicy = urlPolicy;
        this.clock = clock;
        this.refresh = properties.refresh();
        this.defaults = new Redirects(
                text(properties.baseUrl()), text(properties.regular404()), text(properties.invalidShortUrl()));
        this.none = new Held(Settings.NONE, defaults);
        this.byDomain = Map.of();
    }

    /** Redirects not backed by a database: these on the default domain only (for tests of the redirect path). */
    public static DomainRedirects fixed(Redirects redirects) {
        return fixed(Map.of(Domains.DEFAULT_ID, redirects));
    }

    /** Redirects not backed by a database, per domain id (for tests of the redirect path). */
    public static DomainRedirects fixed(Map<Integer, Redirects> byDomain) {
        DomainRedirects fixed = new DomainRedirects(
                null,
                null,
                null,
                new NotFoundRedirectsProperties(null, null, null, Duration.ofDays(1)),
                Clock.systemUTC());
        Map<Integer, Held> held = new HashMap<>();
        byDomain.forEach((id, redirects) -> held.put(id, fixed.held(new Settings(redirects, null))));
        fixed.byDomain = Map.copyOf(held);
        return fixed;
    }

    /** The redirects the traffic port applies now on the default domain. Never does I/O. */
    public Redirects effective() {
        return effective(Domains.DEFAULT_ID);
    }

    /**
     * The redirects the traffic port applies now on the domain with this id: its own, else the configured
     * defaults. {@link Domains#REFUSED} (a host that is none of the domains, refused) has none at all. Never does
     * I/O.
     */
    public Redirects effective(int domainId) {
        if (domainId == Domains.REFUSED) {
            return Redirects.NONE;
        }
        Held held = byDomain.get(domainId);
        return held == null ? defaults : held.effective;
    }

    /** The default domain's own redirects, as last read or saved ({@code null}s where it has none). */
    public Redirects stored() {
        return settings(Domains.DEFAULT_ID).redirects();
    }

    /** The own settings of the domain with this id, as last read or saved. Never does I/O. */
    public Settings settings(int domainId) {
        Held held = byDomain.get(domainId);
        return held == null ? Settings.NONE : held.stored;
    }

    /** The status a create on the domain with this id gets when it names none. Never does I/O. */
    public int redirectStatus(int domainId) {
        Held held = byDomain.get(domainId);
        return held == null ? Link.DEFAULT_REDIRECT_STATUS : held.stored.redirectStatus();
    }

    /** The configured defaults (Shlink's {@code defaultRedirects}). */
    public Redirects defaults() {
        return defaults;
    }

    /**
     * Reads every domain's stored settings now (as the refresh does); completes when they apply. A row of a host
     * this pod does not know as a domain even after reading the domains again is left for a later read.
     */
    public Mono<Void> reload() {
        return db.sql("SELECT domain, base_url_redirect, regular_404_redirect, invalid_short_url_redirect, "
                        + "default_redirect_status FROM domain_redirect")
                .map(row -> {
                    Number status = row.get("default_redirect_status", Number.class);
                    return Map.entry(
                            row.get("domain", String.class),
                            new Settings(
                                    new Redirects(
                                            row.get("base_url_redirect", String.class),
                                            row.get("regular_404_redirect", String.class),
                                            row.get("invalid_short_url_redirect", String.class)),
                                    status == null ? null : status.intValue()));
                })
                .all()
                .collectList()
                .flatMap(rows -> {
                    // A row of a domain this pod does not know yet (added on another pod, or this pod just started):
                    // read the list of domains once, so its redirects apply now rather than a refresh later.
                    String unknown = rows.stream()
                            .map(Map.Entry::getKey)
                            .filter(host -> !DEFAULT_DOMAIN.equals(host)
                                    && domains.find(host).isEmpty())
                            .findFirst()
                            .orElse(null);
                    return unknown == null
                            ? Mono.just(rows)
                            : domains.findFresh(unknown).then(Mono.just(rows));
                })
                .doOnNext(this::replace)
                .then();
    }

    /**
     * Stores a domain's settings (all of them: {@code null} clears one) and applies them here at once. The values
     * must have been checked ({@link #target}, {@link #checkStatus}).
     */
    public Mono<Settings> save(Domain domain, Settings settings) {
        Redirects redirects = settings.redirects();
        var spec = db.sql("INSERT INTO domain_redirect (domain, base_url_redirect, regular_404_redirect, "
                        + "invalid_short_url_redirect, default_redirect_status, changed_at) "
                        + "VALUES (:domain, :base, :regular, :invalid, :status, :at) "
                        + "ON DUPLICATE KEY UPDATE base_url_redirect = VALUES(base_url_redirect), "
                        + "regular_404_redirect = VALUES(regular_404_redirect), "
                        + "invalid_short_url_redirect = VALUES(invalid_short_url_redirect), "
                        + "default_redirect_status = VALUES(default_redirect_status), "
                        + "changed_at = VALUES(changed_at)")
                .bind("domain", domain.isDefault() ? DEFAULT_DOMAIN : domain.host())
                .bind("at", LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC));
        spec = bind(spec, "base", redirects.baseUrl());
        spec = bind(spec, "regular", redirects.regular404());
        spec = bind(spec, "invalid", redirects.invalidShortUrl());
        spec = settings.defaultRedirectStatus() == null
                ? spec.bindNull("status", Integer.class)
                : spec.bind("status", settings.defaultRedirectStatus());
        return spec.fetch().rowsUpdated().then(Mono.fromSupplier(() -> {
            apply(domain.id(), settings);
            return settings;
        }));
    }

    /**
     * A redirect target as it is stored: {@code raw} checked and normalised by the URL policy, as a link's URL is,
     * and an absolute http(s) URL of at most {@value #MAX_LENGTH} characters; {@code null} for {@code null} or
     * empty (none). Otherwise a 400 problem naming {@code field}: the policy's own type, or {@code invalid-request}.
     */
    public String target(String field, String raw) {
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        String normalised;
        try {
            normalised = urlPolicy.normalize(raw);
        } catch (ProblemException refused) {
            throw refused.with("field", field);
        }
        if (!isRedirectTarget(normalised)) {
            throw LinkRequests.invalid(
                    field, field + " must be an absolute http(s) URL of at most " + MAX_LENGTH + " characters.");
        }
        return normalised;
    }

    /** {@code status} when it is one a domain's default may be ({@code null}: none), else a 400 problem. */
    public static Integer checkStatus(Integer status) {
        if (status != null && !REDIRECT_STATUSES.contains(status)) {
            throw LinkRequests.invalid("defaultRedirectStatus", "defaultRedirectStatus must be 301, 302, 307 or 308.");
        }
        return status;
    }

    /** Whether a string is a redirect target this accepts: an absolute http(s) URL with a host, not too long. */
    public static boolean isRedirectTarget(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            return false;
        }
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return ("http".equals(scheme) || "https".equals(scheme)) && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private Held held(Settings settings) {
        return new Held(settings, settings.redirects().or(defaults));
    }

    private synchronized void apply(int domainId, Settings settings) {
        Map<Integer, Held> next = new HashMap<>(byDomain);
        next.put(domainId, held(settings));
        byDomain = Map.copyOf(next);
    }

    private synchronized void replace(List<Map.Entry<String, Settings>> rows) {
        Map<Integer, Held> next = new HashMap<>();
        for (Map.Entry<String, Settings> row : rows) {
            Integer id = DEFAULT_DOMAIN.equals(row.getKey())
                    ? Integer.valueOf(Domains.DEFAULT_ID)
                    : domains.find(row.getKey()).map(Domain::id).orElse(null);
            if (id != null) {
                next.put(id, held(row.getValue()));
            }
        }
        byDomain = Map.copyOf(next);
    }

    private static DatabaseClient.GenericExecuteSpec bind(
            DatabaseClient.GenericExecuteSpec spec, String name, String value) {
        return value == null ? spec.bindNull(name, String.class) : spec.bind(name, value);
    }

    private static String text(URI uri) {
        return uri == null ? null : uri.toString();
    }

    @Override
    public synchronized void start() {
        if (refreshing == null) {
            refreshing = Flux.interval(Duration.ZERO, refresh, Schedulers.parallel())
                    .onBackpressureDrop()
                    .concatMap(
                            tick -> reload().timeout(READ_TIMEOUT).onErrorResume(error -> {
                                log.debug(
                                        "Could not read the domains' settings; keeping the last: {}", error.toString());
                                return Mono.empty();
                            }),
                            1)
                    .subscribe();
        }
    }

    @Override
    public synchronized void stop() {
        if (refreshing != null) {
            refreshing.dispose();
            refreshing = null;
        }
    }

    @Override
    public boolean isRunning() {
        return refreshing != null;
    }
}
