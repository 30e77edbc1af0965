package dev.shortgate.link;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import org.springframework.modulith.NamedInterface;

/**
 * A link's redirect rules, as Shlink 5.1 has them, plus weighted splits: an ordered list of rules, each with a
 * target and one or more conditions that must all match; the first rule that matches wins, and when none does the
 * link's own URL is used, or one of the link's default {@code variants}. A rule, or the link's default, may carry
 * 2 to 10 variants instead of a single target: the visitor always gets the same variant (derived from the keyed
 * client id and the code, with no cookie and no stored state).
 *
 * <p>This is the stored shape (JSON in {@code link_rules}, and inside the Redis value); the {@code rules} module
 * checks it before it is stored and compiles it for the redirect path.
 *
 * @param rules    in priority order (the first has priority 1); never null
 * @param variants the link's default split, or empty for the link's own URL
 */
@NamedInterface("model")
public record LinkRules(List<Rule> rules, List<Variant> variants) {

    public static final LinkRules NONE = new LinkRules(List.of(), List.of());

    public LinkRules {
        rules = rules == null ? List.of() : List.copyOf(rules);
        variants = variants == null ? List.of() : List.copyOf(variants);
    }

    /**
     * Whether there is nothing to evaluate: the link redirects to its own URL. Not a property of the stored JSON (an
     * {@code "empty"} written by earlier builds is ignored when read).
     */
    @JsonIgnore
    public boolean isEmpty() {
        return rules.isEmpty() && variants.isEmpty();
    }

    /**
     * One rule.
     *
     * @param url        where a match goes (ignored when {@code variants} are given; then the first variant's URL)
     * @param conditions one or more, all of which must match
     * @param variants   a weighted split instead of {@code url}, or empty
     */
    public record Rule(String url, List<Condition> conditions, List<Variant> variants) {
        public Rule {
            conditions = conditions == null ? List.of() : List.copyOf(conditions);
            variants = variants == null ? List.of() : List.copyOf(variants);
        }
    }

    /**
     * One condition, in Shlink's shape.
     *
     * @param type       Shlink's condition type ({@code device}, {@code language}, {@code query-param}, …)
     * @param matchKey   the query parameter of the query conditions, else {@code null}
     * @param matchValue what to match, or {@code null} for the conditions that take none
     */
    public record Condition(String type, String matchKey, String matchValue) {}

    /**
     * One arm of a weighted split.
     *
     * @param url    where this arm goes
     * @param weight its share, 0 or more; the weights of a split sum to more than 0
     */
    public record Variant(String url, int weight) {}
}
