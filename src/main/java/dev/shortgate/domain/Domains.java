package dev.shortgate.domain;

import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import dev.shortgate.security.AddedDomains;
import dev.shortgate.security.ApiPrincipal;
import dev.shortgate.security.KeyDomains;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.settings.ShortgateProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.modulith.NamedInterface;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The short domains this gateway serves, held in memory: {@link #find} and {@link #forCreate} never do I/O. The
 * list is loaded at start and every {@code shortgate.domains.refresh-interval}; a change made on this pod is seen
 * here at once, on other pods at their next reload.
 */
@Component
@NamedInterface("registry")
public class Domains implements SmartLifecycle, KeyDomains, AddedDomains {

    /** The default domain's id: it has no row, and every link made before domains existed belongs to it. */
    public static final int DEFAULT_ID = 0;

    /** What {@link #redirectDomainId} answers for a host that is refused. */
    public static final int REFUSED = -1;

    private static final Logger log = LoggerFactory.getLogger(Domains.class);

    private final DomainStore store;
    private final DomainProperties properties;
    private final Clock clock;
    private final Domain defaultDomain;
    private final boolean refuseUnknown;
    private volatile Map<String, Domain> byHost;
    private final List<Consumer<List<Domain>>> listeners = new CopyOnWriteArrayList<>();
    private Disposable task;

    Domains(DomainStore store, DomainProperties properties, ShortgateProperties shortgate, Clock clock) {
        this.store = store;
        this.properties = properties;
        this.clock = clock;
        this.refuseUnknown = properties.unknownHost() == DomainProperties.UnknownHost.REFUSE;
        this.defaultDomain =
                new Domain(DEFAULT_ID, shortgate.baseUrl().getHost().toLowerCase(Locale.ROOT), null);
        this.byHost = Map.of(defaultDomain.host(), defaultDomain);
    }

    public Domain defaultDomain() {
        return defaultDomain;
    }

    /** The domain of a host name as written (any case, Unicode or punycode), if it is one of ours. */
    public Optional<Domain> find(String host) {
        if (host == null) {
            return Optional.empty();
        }
        Domain exact = byHost.get(host);
        if (exact != null) {
            return Optional.of(exact);
        }
        String normalised = DomainNames.normalise(host);
        return normalised == null ? Optional.empty() : Optional.ofNullable(byHost.get(normalised));
    }

    /**
     * The domain of a host name as {@link #find} has it, reading the list again (once) when this pod does not know
     * the host yet: a domain added on another pod is otherwise seen here only at the next reload. Empty when the host
     * is none of the domains.
     */
    public Mono<Domain> findFresh(String host) {
        return Mono.defer(() -> find(host).map(Mono::just).orElseGet(() -> reload().then(
                        Mono.defer(() -> Mono.justOrEmpty(find(host))))));
    }

    /**
     * The id of the domain a redirect's host picks ({@code Host}, or {@code X-Forwarded-Host} from a trusted proxy; a
     * port is ignored), as {@link #redirectKey} picks it: the default domain's for a host that is none of the
     * domains, or {@link #REFUSED} for one when {@code shortgate.domains.unknown-host=refuse}. Never does I/O.
     */
    public int redirectDomainId(String host) {
        String key = redirectKey(host, "x");
        return key == null ? REFUSED : DomainCodes.domainId(key);
    }

    /**
     * The domain a create names: the default one when {@code host} is absent, otherwise the registered domain, or a
     * problem ({@code invalid-domain} for a name that is no DNS name, {@code unknown-domain} for one not added
     * through {@code /api/v1/domains}). Shortgate never registers a domain on the fly.
     */
    public Domain forCreate(String host) {
        if (host == null || host.isEmpty()) {
            return defaultDomain;
        }
        Domain exact = byHost.get(host);
        if (exact != null) {
            return exact;
        }
        String normalised = DomainNames.normalise(host);
        if (normalised == null) {
            throw Problem.INVALID_DOMAIN
                    .toException("domain must be a DNS host name such as go.example.com.")
                    .with("field", "domain");
        }
        Domain known = byHost.get(normalised);
        if (known == null) {
            throw Problem.UNKNOWN_DOMAIN
                    .toException("domain " + normalised + " is not one of this gateway's domains; an admin adds it"
                            + " with POST /api/v1/domains.")
                    .with("field", "domain");
        }
        return known;
    }

    /**
     * The domain a request of this caller names: as {@link #forCreate} for a key of every domain. For a key limited
     * to one domain, an absent {@code host} is its domain, and any other domain is a 403 {@code domain-not-allowed}
     * problem, also when its domain has been removed: such a key then sees nothing.
     */
    public Domain forCaller(String host, ApiPrincipal caller) {
        Integer limited = caller.domainId();
        if (limited == null) {
            return forCreate(host);
        }
        if (host == null || host.isEmpty()) {
            return byId(limited).orElseThrow(() -> ApiPrincipal.domainNotAllowed(null));
        }
        Domain named = forCreate(host);
        caller.checkDomain(named.id(), named.host());
        return named;
    }

    @Override
    public int idOf(String host) {
        if (host == null || host.isEmpty()) {
            throw Problem.INVALID_DOMAIN
                    .toException("domain must be a DNS host name such as go.example.com.")
                    .with("field", "domain");
        }
        return forCreate(host).id();
    }

    /**
     * Whether {@code host} (lower-case punycode, as the URL policy writes hosts) is one of the domains: the URL policy
     * refuses a link to it as a self-link. A map lookup, no I/O.
     */
    @Override
    public boolean contains(String host) {
        return byHost.containsKey(host);
    }

    @Override
    public String hostOfId(int id) {
        return byId(id).map(Domain::host).orElse(null);
    }

    /** The domain with this id, if this pod knows it. */
    public Optional<Domain> byId(int id) {
        if (id == DEFAULT_ID) {
            return Optional.of(defaultDomain);
        }
        for (Domain domain : byHost.values()) {
            if (domain.id() == id) {
                return Optional.of(domain);
            }
        }
        return Optional.empty();
    }

    /**
     * Makes sure this pod knows the domains with these ids, reading the list again (once) if one is missing: a domain
     * added on another pod is otherwise seen here only at the next reload. Completes at once when all are known.
     */
    public Mono<Void> know(java.util.Collection<Integer> ids) {
        return Mono.defer(() -> ids.stream().allMatch(id -> byId(id).isPresent()) ? Mono.empty() : reload());
    }

    /** The host of the domain a stored key belongs to ({@link DomainCodes}); the default host if unknown here. */
    public String hostOf(String key) {
        int id = DomainCodes.domainId(key);
        return id == DEFAULT_ID
                ? defaultDomain.host()
                : byId(id).map(Domain::host).orElse(defaultDomain.host());
    }

    /**
     * The key a redirect for {@code code} looks up, from the request's host ({@code Host}, or
     * {@code X-Forwarded-Host} from a trusted proxy; a port is ignored). While no domain but the default one exists
     * this is {@code code} itself and the host is not even read. A host that is not one of ours is the default
     * domain, or with {@code shortgate.domains.unknown-host=refuse} gets {@code null}: the redirect answers 404.
     */
    public String redirectKey(String host, String code) {
        Map<String, Domain> known = byHost;
        if (known.size() == 1 || host == null) {
            return code;
        }
        int colon = host.lastIndexOf(':');
        if (colon > 0 && host.indexOf(']') < colon) {
            host = host.substring(0, colon);
        }
        Domain domain = known.get(host);
        if (domain == null) {
            domain = known.get(host.toLowerCase(Locale.ROOT));
        }
        if (domain == null) {
            return refuseUnknown ? null : code;
        }
        return DomainCodes.key(domain.id(), code);
    }

    /** Whether the default domain is the only one: then no redirect needs to read its host. */
    public boolean onlyDefault() {
        return byHost.size() == 1;
    }

    /** Every domain, the default first, then the others in the order they were added. */
    public List<Domain> all() {
        List<Domain> all = new ArrayList<>(byHost.values());
        all.sort(Comparator.comparingInt(Domain::id));
        return all;
    }

    Mono<Domain> add(String host) {
        return Mono.defer(() -> {
            String normalised = DomainNames.normalise(host);
            if (normalised == null) {
                return Mono.error(Problem.INVALID_DOMAIN
                        .toException("domain must be a DNS host name such as go.example.com.")
                        .with("field", "domain"));
            }
            if (byHost.containsKey(normalised)) {
                return Mono.error(taken(normalised));
            }
            return store.insert(normalised, clock.instant().truncatedTo(ChronoUnit.MILLIS))
                    .onErrorMap(DataIntegrityViolationException.class, e -> taken(normalised))
                    .flatMap(added -> reload().thenReturn(added));
        });
    }

    Mono<Void> remove(String host) {
        return Mono.defer(() -> {
            Domain domain = find(host).orElse(null);
            if (domain == null) {
                return reload().then(Mono.defer(() -> find(host)
                        .map(found -> remove(found))
                        .orElseGet(() -> Mono.error(
                                Problem.DOMAIN_NOT_FOUND.toException("No domain " + host + " on this gateway.")))));
            }
            return remove(domain);
        });
    }

    private Mono<Void> remove(Domain domain) {
        if (domain.isDefault()) {
            return Mono.error(Problem.DOMAIN_IN_USE.toException(
                    "The default domain (the host of shortgate.base-url) cannot be removed."));
        }
        return store.hasLinks(domain.id())
                .flatMap(has -> has
                        ? Mono.error(Problem.DOMAIN_IN_USE.toException(
                                "Domain " + domain.host() + " still has links; delete them first."))
                        : store.delete(domain).then(reload()));
    }

    private static RuntimeException taken(String host) {
        return Problem.DOMAIN_TAKEN.toException("Domain " + host + " is already one of this gateway's domains.");
    }

    /** Reads the list again and replaces the one in memory. */
    Mono<Void> reload() {
        return store.all().collectList().doOnNext(this::replace).then();
    }

    private synchronized void replace(List<Domain> rows) {
        Map<String, Domain> next = new LinkedHashMap<>();
        next.put(defaultDomain.host(), defaultDomain);
        for (Domain row : rows) {
            next.putIfAbsent(row.host(), row);
        }
        Map<String, Domain> copy = Map.copyOf(next);
        if (!copy.equals(byHost)) {
            byHost = copy;
            List<Domain> all = all();
            listeners.forEach(listener -> listener.accept(all));
        }
    }

    /**
     * Calls {@code listener} with {@link #all()} now and after every change of the list on this pod (an add or a
     * remove here, or one seen at a reload), on the thread that made it. It must be quick and must not throw.
     */
    public void onChange(Consumer<List<Domain>> listener) {
        listeners.add(listener);
        listener.accept(all());
    }

    /**
     * How many domains get a tag of their own in the redirect metrics ({@code shortgate.domains.metric-domains}):
     * the default domain and the first ones added up to this many; the rest share one.
     */
    public int metricDomains() {
        return properties.metricDomains();
    }

    @Override
    public synchronized void start() {
        if (task != null) {
            return;
        }
        Duration interval = properties.refreshInterval();
        task = Flux.interval(Duration.ZERO, interval)
                .onBackpressureDrop()
                .concatMap(tick -> reload().onErrorResume(e -> {
                    log.warn("Could not reload the short domains; keeping the {} known", byHost.size(), e);
                    return Mono.empty();
                }))
                .subscribe();
    }

    @Override
    public synchronized void stop() {
        if (task != null) {
            task.dispose();
            task = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return task != null;
    }
}
