package dev.shortgate.rules;

import java.time.Clock;
import java.util.List;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRules;
import dev.shortgate.visit.enrich.GeoLocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.modulith.NamedInterface;

/**
 * Compiles a link's rules once per cached link ({@link #compile}) and picks a request's target from them
 * ({@link Compiled#target}) on the event loop, with no I/O: conditions test facts of the request, the in-memory
 * GeoIP database and the injected clock. A link without rules compiles to {@code null}: the redirect path checks
 * that and nothing else.
 */
@NamedInterface("evaluation")
public final class RuleEngine {

    private static final Logger log = LoggerFactory.getLogger(RuleEngine.class);
    /** {@code Accept-Language} headers whose reading is kept. */
    static final long LANGUAGE_CACHE_SIZE = 1_024;

    private final Agents agents;
    private final AcceptedLanguages languages = new AcceptedLanguages(LANGUAGE_CACHE_SIZE);
    private final GeoLocator geo;
    private final VariantPicker variants;
    private final Clock clock;

    RuleEngine(Agents agents, GeoLocator geo, VariantPicker variants, Clock clock) {
        this.agents = agents;
        this.geo = geo;
        this.variants = variants;
        this.clock = clock;
    }

    /** The link's rules ready to test, or {@code null} when it has none. */
    public Compiled compile(Link link) {
        LinkRules rules = link.rules();
        if (rules == null || rules.isEmpty()) {
            return null;
        }
        Rule[] compiled = new Rule[rules.rules().size()];
        for (int i = 0; i < compiled.length; i++) {
            LinkRules.Rule rule = rules.rules().get(i);
            Conditions.Test[] tests = new Conditions.Test[rule.conditions().size()];
            for (int j = 0; j < tests.length; j++) {
                try {
                    tests[j] = Conditions.compile(rule.conditions().get(j));
                } catch (IllegalArgumentException e) {
                    // Stored rules were checked; one that no longer compiles (an older build's) never matches.
                    log.warn("A redirect rule of a link does not compile and never matches: {}", e.getMessage());
                    tests[j] = context -> false;
                }
            }
            compiled[i] = new Rule(tests, Split.of(rule.url(), rule.variants()));
        }
        return new Compiled(compiled, rules.variants().isEmpty() ? null : Split.of(link.url(), rules.variants()), this);
    }

    /** A rule: its conditions (all must match; a rule without any never does, as in Shlink) and where it leads. */
    private record Rule(Conditions.Test[] tests, Split split) {

        boolean matches(Context context) {
            if (tests.length == 0) {
                return false;
            }
            for (Conditions.Test test : tests) {
                if (!test.matches(context)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** One target, or a weighted split of several. */
    private record Split(String[] urls, int[] weights, int total) {

        static Split of(String url, List<LinkRules.Variant> variants) {
            if (variants.isEmpty()) {
                return new Split(new String[] {url}, null, 0);
            }
            String[] urls = new String[variants.size()];
            int[] weights = new int[variants.size()];
            int total = 0;
            for (int i = 0; i < urls.length; i++) {
                urls[i] = variants.get(i).url();
                weights[i] = Math.max(0, variants.get(i).weight());
                total += weights[i];
            }
            return total <= 0 ? new Split(new String[] {urls[0]}, null, 0) : new Split(urls, weights, total);
        }

        String target(RuleRequest request, VariantPicker picker) {
            if (weights == null) {
                return urls[0];
            }
            return urls[picker.pick(weights, total, request.code(), request.clientIp(), request.userAgent())];
        }
    }

    /** A link's compiled rules. */
    public static final class Compiled {

        private final Rule[] rules;
        private final Split fallback;
        private final RuleEngine engine;

        private Compiled(Rule[] rules, Split fallback, RuleEngine engine) {
            this.rules = rules;
            this.fallback = fallback;
            this.engine = engine;
        }

        /** Every target these rules can answer with (each the same instance {@link #target} returns). */
        public java.util.Set<String> targets() {
            java.util.Set<String> all = new java.util.HashSet<>();
            for (Rule rule : rules) {
                all.addAll(List.of(rule.split().urls()));
            }
            if (fallback != null) {
                all.addAll(List.of(fallback.urls()));
            }
            return all;
        }

        /**
         * The target for this request: the first matching rule's (its variant, for a split), else the link's
         * default split's variant, else {@code null} for the link's own URL.
         */
        public String target(RuleRequest request) {
            if (rules.length > 0) {
                Context context =
                        new Context(request, engine.clock.instant(), engine.agents, engine.languages, engine.geo);
                for (Rule rule : rules) {
                    if (rule.matches(context)) {
                        return rule.split().target(request, engine.variants);
                    }
                }
            }
            return fallback == null ? null : fallback.target(request, engine.variants);
        }
    }
}
