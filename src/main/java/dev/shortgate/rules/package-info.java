/**
 * Redirect rules and weighted splits (issue 25; docs/adr/0018-redirect-rules-in-the-cached-link.md). A link's rules
 * ({@link dev.shortgate.link.LinkRules}) are stored and cached with the link by the link feature; this feature
 * checks them before they are stored ({@link dev.shortgate.rules.RuleCheck}), serves them over the native API
 * ({@code RulesController}, {@code /api/v1/links/{code}/rules}) and compiles them once per cached link for the
 * redirect path ({@link dev.shortgate.rules.RuleEngine}): conditions ({@code Conditions}) test facts of the request
 * worked out at most once each ({@code Context}: the agent through {@code Agents}, languages, query, IP, GeoIP), and
 * a split's arm is picked by {@code VariantPicker}.
 *
 * <p>Named interfaces: {@code evaluation} (the {@code RuleEngine} and {@code RuleRequest}, for the redirect path) and
 * {@code check} ({@code RuleCheck} and the native JSON, for Shlink's adapter).
 */
@ApplicationModule(
        allowedDependencies = {
            "link :: model",
            "link :: service",
            "link :: store",
            "security :: principal",
            "security :: url-policy",
            "visit :: geo",
            "system :: *"
        })
package dev.shortgate.rules;

import org.springframework.modulith.ApplicationModule;
