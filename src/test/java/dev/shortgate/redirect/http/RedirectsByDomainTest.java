package dev.shortgate.redirect.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.shortgate.domain.Domain;
import dev.shortgate.domain.Domains;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** {@code shortgate.domain.redirects}: one series per metered domain, the rest as {@code other}, never more. */
class RedirectsByDomainTest {

    static final Domain DEFAULT = new Domain(Domains.DEFAULT_ID, "sho.rt", null);
    static final Domain A = new Domain(3, "a.test", null);
    static final Domain B = new Domain(7, "b.test", null);
    static final Domain C = new Domain(12, "c.test", null);

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void eachDomainUpToTheLimitCountsUnderItsHostAndTheRestUnderOther() {
        RedirectsByDomain byDomain = new RedirectsByDomain(3, registry);
        byDomain.meter(List.of(DEFAULT, A, B, C));

        byDomain.increment(Domains.DEFAULT_ID);
        byDomain.increment(3);
        byDomain.increment(3);
        byDomain.increment(7);
        byDomain.increment(12); // past the limit
        byDomain.increment(99); // unknown here

        assertThat(counts()).isEqualTo(Map.of("sho.rt", 1.0, "a.test", 2.0, "b.test", 1.0, "other", 2.0));
    }

    @Test
    void aSingleDomainGatewayPublishesOneSeriesAndNoOther() {
        RedirectsByDomain byDomain = new RedirectsByDomain(20, registry);
        byDomain.meter(List.of(DEFAULT));

        byDomain.increment(Domains.DEFAULT_ID);

        assertThat(counts()).isEqualTo(Map.of("sho.rt", 1.0));
    }

    @Test
    void aRemovedDomainsSeriesGoesAndAnAddedOneAppears() {
        RedirectsByDomain byDomain = new RedirectsByDomain(20, registry);
        byDomain.meter(List.of(DEFAULT, A, B));
        byDomain.increment(3);

        byDomain.meter(List.of(DEFAULT, B, C));
        byDomain.increment(12);
        byDomain.increment(3); // removed since: not one of the domains any more

        assertThat(counts()).containsOnlyKeys("sho.rt", "b.test", "c.test").containsEntry("c.test", 1.0);
    }

    @Test
    void theSeriesAreBoundedByTheLimitHoweverManyDomainsThereAre() {
        RedirectsByDomain byDomain = new RedirectsByDomain(5, registry);
        List<Domain> many = new java.util.ArrayList<>(List.of(DEFAULT));
        for (int id = 1; id <= 500; id++) {
            many.add(new Domain(id, "d" + id + ".test", null));
        }
        byDomain.meter(many);
        for (int id = 0; id <= 500; id++) {
            byDomain.increment(id);
        }

        assertThat(registry.find(RedirectsByDomain.NAME).counters()).hasSize(6);
        assertThat(counts()).containsEntry("other", 496.0).containsEntry("d4.test", 1.0);
    }

    @Test
    void nothingIsCountedBeforeTheDomainsAreKnownNorByTheTestStandIn() {
        new RedirectsByDomain(3, registry).increment(Domains.DEFAULT_ID);
        RedirectsByDomain.NONE.increment(Domains.DEFAULT_ID);

        assertThat(registry.getMeters()).isEmpty();
    }

    private Map<String, Double> counts() {
        Map<String, Double> counts = new TreeMap<>();
        for (Counter counter : registry.find(RedirectsByDomain.NAME).counters()) {
            counts.put(counter.getId().getTag("domain"), counter.count());
        }
        return counts;
    }
}
