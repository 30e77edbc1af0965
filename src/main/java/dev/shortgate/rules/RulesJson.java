package dev.shortgate.rules;

import java.util.ArrayList;
import java.util.List;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRules;

/**
 * The native API's rule set ({@code /api/v1/links/{code}/rules}): Shlink's rule shape ({@code conditions} of
 * {@code type}, {@code matchKey}, {@code matchValue}; {@code priority} from 1 in the order given) with Shortgate's
 * names ({@code url}) and splits ({@code variants}). In a request {@code priority} is ignored: the order is the
 * priority.
 *
 * @param code     the link's code (answers only)
 * @param url      the link's own URL, where a request that matches no rule goes (answers only)
 * @param rules    in priority order
 * @param variants the link's default split, or empty
 */
record RulesJson(String code, String url, List<RuleJson> rules, List<LinkRules.Variant> variants) {

    /**
     * @param priority   1 for the first rule (answers only)
     * @param url        where a match goes; with {@code variants}, the first variant's URL
     * @param conditions 1 to 10, all of which must match
     * @param variants   a weighted split of 2 to 10 targets, or empty
     */
    record RuleJson(
            Integer priority, String url, List<LinkRules.Condition> conditions, List<LinkRules.Variant> variants) {}

    static RulesJson of(Link link) {
        LinkRules rules = link.rules() == null ? LinkRules.NONE : link.rules();
        List<RuleJson> items = new ArrayList<>(rules.rules().size());
        for (int i = 0; i < rules.rules().size(); i++) {
            LinkRules.Rule rule = rules.rules().get(i);
            items.add(new RuleJson(i + 1, rule.url(), rule.conditions(), rule.variants()));
        }
        return new RulesJson(link.code(), link.url(), items, rules.variants());
    }

    LinkRules toRules() {
        List<LinkRules.Rule> items = new ArrayList<>(rules == null ? 0 : rules.size());
        if (rules != null) {
            for (RuleJson rule : rules) {
                items.add(rule == null ? null : new LinkRules.Rule(rule.url(), rule.conditions(), rule.variants()));
            }
        }
        return new LinkRules(items, variants);
    }
}
