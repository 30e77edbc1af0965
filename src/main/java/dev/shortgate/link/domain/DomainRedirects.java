package dev.shortgate.link.domain;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The default domain's not-found redirects (Shlink's base URL, regular 404 and invalid short URL redirects): stored
 * in {@code domain_redirect} so every pod applies the same ones, and held in memory, so the redirect path reads a
 * field and never the database. Each pod reads the row again every {@code shortgate.not-found-redirects.refresh};
 * a change saved through this pod applies here at once. A redirect the domain has none of falls back to the
 * configured default ({@link NotFoundRedirectsProperties}); neither means a 404.
 */
@Component
public class DomainRedirects implements SmartLifecycle {

    /** The default domain's key in {@code domain_redirect} (other domains would be keyed by their authority). */
    static final String DEFAULT_DOMAIN = "";

    /** Longest redirect target stored. */
    public static final int MAX_LENGTH = 2048;

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

    private final DatabaseClient db;
    private final Clock clock;
    private final Duration refresh;
    private final Redirects defaults;

    private volatile Redirects stored = Redirects.NONE;
    private volatile Redirects effective;
    private volatile Disposable refreshing;

    DomainRedirects(DatabaseClient db, NotFoundRedirectsProperties properties, Clock clock) {
        this.db = db;
        this.clock = clock;
        this.refresh = properties.refresh();
        this.defaults = new Redirects(
                text(properties.baseUrl()), text(properties.regular404()), text(properties.invalidShortUrl()));
        this.effective = defaults;
    }

    /** Redirects not backed by a database, always these (for tests of the redirect path). */
    public static DomainRedirects fixed(Redirects redirects) {
        DomainRedirects fixed = new DomainRedirects(
                null, new NotFoundRedirectsProperties(null, null, null, Duration.ofDays(1)), Clock.systemUTC());
        fixed.apply(redirects);
        return fixed;
    }

    /** The redirects the traffic port applies now: the stored ones, else the defaults. Never does I/O. */
    public Redirects effective() {
        return effective;
    }

    /** The default domain's own redirects, as last read or saved ({@code null}s where it has none). */
    public Redirects stored() {
        return stored;
    }

    /** The configured defaults (Shlink's {@code defaultRedirects}). */
    public Redirects defaults() {
        return defaults;
    }

    /** Reads the stored redirects now (as the refresh does); completes with them. */
    public Mono<Redirects> reload() {
        return db.sql("SELECT base_url_redirect, regular_404_redirect, invalid_short_url_redirect "
                        + "FROM domain_redirect WHERE domain = :domain")
                .bind("domain", DEFAULT_DOMAIN)
                .map(row -> new Redirects(
                        row.get("base_url_redirect", String.class),
                        row.get("regular_404_redirect", String.class),
                        row.get("invalid_short_url_redirect", String.class)))
                .one()
                .defaultIfEmpty(Redirects.NONE)
                .doOnNext(this::apply);
    }

    /** Stores the default domain's redirects (all three: {@code null} clears one) and applies them here at once. */
    public Mono<Redirects> save(Redirects redirects) {
        var spec = db.sql("INSERT INTO domain_redirect (domain, base_url_redirect, regular_404_redirect, "
                        + "invalid_short_url_redirect, changed_at) VALUES (:domain, :base, :regular, :invalid, :at) "
                        + "ON DUPLICATE KEY UPDATE base_url_redirect = VALUES(base_url_redirect), "
                        + "regular_404_redirect = VALUES(regular_404_redirect), "
                        + "invalid_short_url_redirect = VALUES(invalid_short_url_redirect), "
                        + "changed_at = VALUES(changed_at)")
                .bind("domain", DEFAULT_DOMAIN)
                .bind("at", LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC));
        spec = bind(spec, "base", redirects.baseUrl());
        spec = bind(spec, "regular", redirects.regular404());
        spec = bind(spec, "invalid", redirects.invalidShortUrl());
        return spec.fetch().rowsUpdated().then(Mono.fromSupplier(() -> {
            apply(redirects);
            return redirects;
        }));
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

    private void apply(Redirects redirects) {
        stored = redirects;
        effective = redirects.or(defaults);
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
                                        "Could not read the not-found redirects; keeping the last: {}",
                                        error.toString());
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
