package dev.shortgate.rules;

import java.util.ArrayList;
import java.util.List;

import dev.shortgate.link.LinkRules;
import dev.shortgate.link.store.LinkRows;
import dev.shortgate.security.UrlPolicy;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import org.springframework.modulith.NamedInterface;
import org.springframework.stereotype.Component;

/**
 * Checks a rule set before it is stored, for both APIs: at most {@value #MAX_RULES} rules of 1 to
 * {@value #MAX_CONDITIONS} conditions, every condition's type and value ({@link Conditions}), every target through
 * the {@link UrlPolicy} (and normalised by it, as a link's URL is), splits of {@value #MIN_VARIANTS} to
 * {@value #MAX_VARIANTS} variants with weights of 0 to {@value #MAX_WEIGHT} that sum to more than 0, and the whole
 * within {@link LinkRows#MAX_RULES_JSON} characters as stored. The first fault answers a problem
 * ({@code invalid-rules}, or the URL policy's own) naming the field, e.g. {@code rules[2].conditions[0].matchValue}.
 */
@Component
@NamedInterface("check")
public class RuleCheck {

    public static final int MAX_RULES = 20;
    public static final int MAX_CONDITIONS = 10;
    public static final int MIN_VARIANTS = 2;
    public static final int MAX_VARIANTS = 10;
    public static final int MAX_WEIGHT = 1_000_000;

    private final UrlPolicy urls;

    RuleCheck(UrlPolicy urls) {
        this.urls = urls;
    }

    /** The rule set checked and its URLs normalised; a {@link ProblemException} at the first fault. */
    public LinkRules check(LinkRules rules) {
        if (rules == null) {
            return LinkRules.NONE;
        }
        if (rules.rules().size() > MAX_RULES) {
            throw invalid("rules", "A link has at most " + MAX_RULES + " redirect rules.");
        }
        List<LinkRules.Rule> checked = new ArrayList<>(rules.rules().size());
        for (int i = 0; i < rules.rules().size(); i++) {
            LinkRules.Rule rule = rules.rules().get(i);
            String at = "rules[" + i + "]";
            if (rule == null) {
                throw invalid(at, "A rule must be an object.");
            }
            if (rule.conditions().isEmpty() || rule.conditions().size() > MAX_CONDITIONS) {
                throw invalid(
                        at + ".conditions",
                        "A rule has 1 to " + MAX_CONDITIONS + " conditions, all of which must match.");
            }
            for (int j = 0; j < rule.conditions().size(); j++) {
                LinkRules.Condition condition = rule.conditions().get(j);
                String field = at + ".conditions[" + j + "]";
                if (condition == null || condition.type() == null) {
                    throw invalid(field + ".type", "A condition needs a type.");
                }
                try {
                    Conditions.compile(condition);
                } catch (IllegalArgumentException e) {
                    throw invalid(
                            field + (ConditionType.of(condition.type()) == null ? ".type" : ".matchValue"),
                            e.getMessage());
                }
            }
            List<LinkRules.Variant> variants = variants(rule.variants(), at + ".variants");
            String url = variants.isEmpty()
                    ? url(rule.url(), at + ".url")
                    : variants.get(0).url();
            checked.add(new LinkRules.Rule(url, rule.conditions(), variants));
        }
        LinkRules result = new LinkRules(checked, variants(rules.variants(), "variants"));
        if (LinkRows.writeRules(result).length() > LinkRows.MAX_RULES_JSON) {
            throw invalid("rules", "The rules take more than " + LinkRows.MAX_RULES_JSON + " characters as stored.");
        }
        return result;
    }

    private List<LinkRules.Variant> variants(List<LinkRules.Variant> variants, String at) {
        if (variants.isEmpty()) {
            return variants;
        }
        if (variants.size() < MIN_VARIANTS || variants.size() > MAX_VARIANTS) {
            throw invalid(at, "A split has " + MIN_VARIANTS + " to " + MAX_VARIANTS + " variants.");
        }
        long total = 0;
        List<LinkRules.Variant> checked = new ArrayList<>(variants.size());
        for (int i = 0; i < variants.size(); i++) {
            LinkRules.Variant variant = variants.get(i);
            if (variant == null) {
                throw invalid(at + "[" + i + "]", "A variant must be an object.");
            }
            if (variant.weight() < 0 || variant.weight() > MAX_WEIGHT) {
                throw invalid(at + "[" + i + "].weight", "A weight is a whole number from 0 to " + MAX_WEIGHT + ".");
            }
            total += variant.weight();
            checked.add(new LinkRules.Variant(url(variant.url(), at + "[" + i + "].url"), variant.weight()));
        }
        if (total <= 0) {
            throw invalid(at, "The weights of a split must sum to more than 0.");
        }
        return checked;
    }

    private String url(String url, String field) {
        if (url == null) {
            throw invalid(field, "A target URL is required.");
        }
        try {
            return urls.normalize(url);
        } catch (ProblemException e) {
            throw e.with("field", field);
        }
    }

    static ProblemException invalid(String field, String detail) {
        return Problem.INVALID_RULES.toException(detail).with("field", field);
    }
}
