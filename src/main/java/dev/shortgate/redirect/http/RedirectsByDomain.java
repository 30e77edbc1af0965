package dev.shortgate.redirect.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.Domains;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code shortgate.domain.redirects}: redirects answered (a link found and sent on, both paths), by short domain. The
 * {@code domain} tag is bounded: the default domain and the first domains added, up to
 * {@code shortgate.domains.metric-domains} in all, each have their host as tag; any other domain's redirects count
 * as {@code other}. The latency timer {@code shortgate.redirect} has no domain tag, so the series of a pod grow by at
 * most that many plus one with the domains.
 *
 * <p>Cheap on the hot path: the counters are registered when the list of domains changes (on this pod's
 * {@link Domains#onChange}), into an immutable table; a redirect reads it once and, for the default domain, takes
 * its counter at once, for another binary-searches the sorted ids. No allocation, no string work.
 */
final class RedirectsByDomain {

    static final String NAME = "shortgate.domain.redirects";
    static final String OTHER = "other";

    /** Counts nothing: for tests that build {@link Redirects} by hand. */
    static final RedirectsByDomain NONE = new RedirectsByDomain();

    /**
     * @param defaultDomain the default domain's counter
     * @param ids           the other metered domains' ids, sorted
     * @param counters      their counters, in the order of {@code ids}
     * @param other         every other domain's counter; {@code null} while every domain has its own
     */
    private record Table(Counter defaultDomain, int[] ids, Counter[] counters, Counter other) {

        Counter of(int domainId) {
            if (domainId == Domains.DEFAULT_ID) {
                return defaultDomain;
            }
            int at = Arrays.binarySearch(ids, domainId);
            return at >= 0 ? counters[at] : other;
        }
    }

    private final MeterRegistry registry;
    private final int limit;
    private volatile Table table;

    private RedirectsByDomain() {
        this.registry = null;
        this.limit = 0;
        this.table = null;
    }

    /** Meters the domains of {@code domains}, and follows its changes. */
    static RedirectsByDomain of(Domains domains, MeterRegistry registry) {
        RedirectsByDomain byDomain = new RedirectsByDomain(domains.metricDomains(), registry);
        domains.onChange(byDomain::meter);
        return byDomain;
    }

    /** @param limit how many domains have a tag of their own, the default one included */
    RedirectsByDomain(int limit, MeterRegistry registry) {
        this.registry = registry;
        this.limit = limit;
    }

    /** Counts a redirect of the domain with this id ({@link Redirects#domainId}). */
    void increment(int domainId) {
        Table now = table;
        if (now != null) {
            Counter counter = now.of(domainId);
            if (counter != null) {
                counter.increment();
            }
        }
    }

    /**
     * Registers the counters of the metered domains (and {@code other} when some are not), and removes the rest.
     *
     * @param all every domain, the default one first, then by id ({@link Domains#all()})
     */
    synchronized void meter(List<Domain> all) {
        Map<String, Counter> kept = new HashMap<>();
        List<Domain> metered = all.subList(0, Math.min(limit, all.size())); // the default domain first, by id
        Counter defaultDomain = null;
        int[] ids = new int[Math.max(0, metered.size() - 1)];
        Counter[] counters = new Counter[ids.length];
        int i = 0;
        for (Domain domain : metered) {
            Counter counter = counter(domain.host());
            kept.put(domain.host(), counter);
            if (domain.isDefault()) {
                defaultDomain = counter;
            } else {
                ids[i] = domain.id();
                counters[i++] = counter;
            }
        }
        Counter other = null;
        if (all.size() > metered.size()) {
            other = counter(OTHER);
            kept.put(OTHER, other);
        }
        table = new Table(defaultDomain, Arrays.copyOf(ids, i), Arrays.copyOf(counters, i), other);
        for (Counter old : new ArrayList<>(registry.find(NAME).counters())) {
            if (kept.get(old.getId().getTag("domain")) != old) {
                registry.remove(old); // a domain removed: its series goes
            }
        }
    }

    private Counter counter(String domain) {
        return Counter.builder(NAME)
                .description("Redirects answered, by short domain: the first shortgate.domains.metric-domains"
                        + " domains by host, the rest as other")
                .tag("domain", domain)
                .register(registry);
    }
}
