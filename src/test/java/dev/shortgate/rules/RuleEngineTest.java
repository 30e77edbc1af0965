package dev.shortgate.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRules;
import dev.shortgate.visit.enrich.GeoLocator;
import org.junit.jupiter.api.Test;

class RuleEngineTest {

    static final String ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Mobile Safari/537.36";
    static final String IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
            + "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
    static final String WINDOWS_EDGE = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like "
            + "Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51";
    static final String MAC_SAFARI = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like "
            + "Gecko) Version/17.4 Safari/605.1.15";
    static final String LINUX_FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0";
    static final String CHROMEOS = "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Safari/537.36";
    static final String OPERA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0";
    static final String ANDROID_BROWSER = "Mozilla/5.0 (Linux; U; Android 4.0.3; ko-kr; LG-L160L Build/IML74K) "
            + "AppleWebkit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30";

    static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

    final VariantPicker picker = new VariantPicker();
    final RuleEngine engine =
            new RuleEngine(new Agents(100), GeoLocator.open(null), picker, Clock.fixed(NOW, ZoneOffset.UTC));

    static LinkRules.Condition c(String type, String key, String value) {
        return new LinkRules.Condition(type, key, value);
    }

    static LinkRules.Rule rule(String url, LinkRules.Condition... conditions) {
        return new LinkRules.Rule(url, List.of(conditions), List.of());
    }

    RuleEngine.Compiled compile(LinkRules.Rule... rules) {
        return engine.compile(link(new LinkRules(List.of(rules), List.of())));
    }

    static Link link(LinkRules rules) {
        return new Link("code1", "https://example.com/", 302, false, NOW, null, null, false, false, null, null)
                .withRules(rules);
    }

    static RuleRequest request(String query, String ip, String agent, String language) {
        try {
            return new RuleRequest("code1", query, ip == null ? null : InetAddress.getByName(ip), agent, language);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    static RuleRequest agent(String agent) {
        return request(null, null, agent, null);
    }

    @Test
    void aLinkWithoutRulesCompilesToNothing() {
        assertThat(engine.compile(link(null))).isNull();
        assertThat(engine.compile(link(LinkRules.NONE))).isNull();
    }

    @Test
    void devicesFollowShlinksPlatformsAndAUserAgentCanBeSeveral() {
        RuleEngine.Compiled rules = compile(
                rule("https://a/android", c("device", null, "android")),
                rule("https://a/ios", c("device", null, "ios")),
                rule("https://a/chromeos", c("device", null, "chromeos")),
                rule("https://a/windows", c("device", null, "windows")),
                rule("https://a/macos", c("device", null, "macos")),
                rule("https://a/linux", c("device", null, "linux")));
        assertThat(rules.target(agent(ANDROID))).isEqualTo("https://a/android");
        assertThat(rules.target(agent(IPHONE))).isEqualTo("https://a/ios");
        assertThat(rules.target(agent(CHROMEOS))).isEqualTo("https://a/chromeos");
        assertThat(rules.target(agent(WINDOWS_EDGE))).isEqualTo("https://a/windows");
        assertThat(rules.target(agent(MAC_SAFARI))).isEqualTo("https://a/macos");
        assertThat(rules.target(agent(LINUX_FIREFOX))).isEqualTo("https://a/linux");

        RuleEngine.Compiled mobileOrDesktop = compile(
                rule("https://a/mobile", c("device", null, "mobile")),
                rule("https://a/desktop", c("device", null, "desktop")));
        assertThat(mobileOrDesktop.target(agent(ANDROID))).isEqualTo("https://a/mobile");
        assertThat(mobileOrDesktop.target(agent(IPHONE))).isEqualTo("https://a/mobile");
        assertThat(mobileOrDesktop.target(agent(CHROMEOS))).isEqualTo("https://a/desktop");
        assertThat(mobileOrDesktop.target(agent(LINUX_FIREFOX))).isEqualTo("https://a/desktop");
    }

    @Test
    void unknownEmptyAndBotAgentsMatchNoDeviceAndNoBrowser() {
        RuleEngine.Compiled rules = compile(
                rule("https://a/desktop", c("device", null, "desktop")),
                rule("https://a/mobile", c("device", null, "mobile")),
                rule("https://a/chrome", c("browser", null, "chrome")));
        for (String unknown : new String[] {
            null,
            "",
            "curl/8.5.0",
            "Googlebot/2.1 (+http://www.google.com/bot.html)",
            "\u0000\uffff garbage",
            "Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1) Edge/15.15063"
        }) {
            assertThat(rules.target(agent(unknown))).as(String.valueOf(unknown)).isNull();
        }
    }

    @Test
    void browsersAreToldApartWhenAgentsClaimSeveral() {
        RuleEngine.Compiled rules = compile(
                rule("https://a/edge", c("browser", null, "edge")),
                rule("https://a/opera", c("browser", null, "opera")),
                rule("https://a/chrome", c("browser", null, "chrome")),
                rule("https://a/firefox", c("browser", null, "firefox")),
                rule("https://a/android_browser", c("browser", null, "android_browser")),
                rule("https://a/safari", c("browser", null, "safari")));
        assertThat(rules.target(agent(WINDOWS_EDGE))).isEqualTo("https://a/edge");
        assertThat(rules.target(agent(OPERA))).isEqualTo("https://a/opera");
        assertThat(rules.target(agent(ANDROID))).isEqualTo("https://a/chrome");
        assertThat(rules.target(agent(LINUX_FIREFOX))).isEqualTo("https://a/firefox");
        assertThat(rules.target(agent(ANDROID_BROWSER))).isEqualTo("https://a/android_browser");
        assertThat(rules.target(agent(MAC_SAFARI))).isEqualTo("https://a/safari");
        assertThat(rules.target(agent(IPHONE))).isEqualTo("https://a/safari");
    }

    @Test
    void languagesHonourQualityAndMatchALanguageOrALanguageRegion() {
        RuleEngine.Compiled rules = compile(
                rule("https://a/en-us", c("language", null, "en-US")), rule("https://a/fr", c("language", null, "fr")));
        assertThat(rules.target(request(null, null, null, "en-US,en;q=0.9"))).isEqualTo("https://a/en-us");
        assertThat(rules.target(request(null, null, null, "en_us"))).isEqualTo("https://a/en-us");
        assertThat(rules.target(request(null, null, null, "en-GB"))).isNull();
        assertThat(rules.target(request(null, null, null, "fr-CA"))).isEqualTo("https://a/fr");
        assertThat(rules.target(request(null, null, null, "de, fr;q=0.9"))).isEqualTo("https://a/fr");
        // q=0 means "not this one"; below Shlink's 0.9 it does not count either
        assertThat(rules.target(request(null, null, null, "de, fr;q=0"))).isNull();
        assertThat(rules.target(request(null, null, null, "de, fr;q=0.8"))).isNull();
        assertThat(rules.target(request(null, null, null, "*"))).isNull();
        assertThat(rules.target(request(null, null, null, ""))).isNull();
        assertThat(rules.target(request(null, null, null, "fr;q=abc"))).isNull();
        assertThat(rules.target(request(null, null, null, null))).isNull();
    }

    @Test
    void queryConditionsReadDecodedParametersTheWayShlinkDoes() {
        RuleEngine.Compiled rules = compile(
                rule("https://a/value", c("query-param", "utm", "a b")),
                rule("https://a/valueless", c("valueless-query-param", "flag", null)),
                rule("https://a/any", c("any-value-query-param", "ref", null)));
        assertThat(rules.target(request("utm=a+b", null, null, null))).isEqualTo("https://a/value");
        assertThat(rules.target(request("utm=a%20b", null, null, null))).isEqualTo("https://a/value");
        assertThat(rules.target(request("utm=x&utm=a+b", null, null, null))).isEqualTo("https://a/value");
        assertThat(rules.target(request("utm=ab", null, null, null))).isNull();
        assertThat(rules.target(request("flag", null, null, null))).isEqualTo("https://a/valueless");
        assertThat(rules.target(request("flag=", null, null, null))).isEqualTo("https://a/valueless");
        assertThat(rules.target(request("flag=1", null, null, null))).isNull();
        assertThat(rules.target(request("ref=1", null, null, null))).isEqualTo("https://a/any");
        assertThat(rules.target(request("ref", null, null, null))).isEqualTo("https://a/any");
        assertThat(rules.target(request("%zz=1&other", null, null, null))).isNull();
        assertThat(rules.target(request(null, null, null, null))).isNull();
    }

    @Test
    void ipAddressesMatchSingleCidrAndWildcardPatternsForBothFamilies() {
        RuleEngine.Compiled rules = compile(
                rule("https://a/single", c("ip-address", null, "100.200.80.40")),
                rule("https://a/cidr", c("ip-address", null, "192.168.10.0/24")),
                rule("https://a/wildcard", c("ip-address", null, "11.*.33.*")),
                rule("https://a/v6cidr", c("ip-address", null, "2001:db8::/32")),
                rule("https://a/v6single", c("ip-address", null, "2a00:1450::1")),
                rule("https://a/v6wildcard", c("ip-address", null, "2a01:*:0:0:0:0:0:1")));
        assertThat(rules.target(request(null, "100.200.80.40", null, null))).isEqualTo("https://a/single");
        assertThat(rules.target(request(null, "100.200.80.41", null, null))).isNull();
        assertThat(rules.target(request(null, "192.168.10.255", null, null))).isEqualTo("https://a/cidr");
        assertThat(rules.target(request(null, "192.168.11.0", null, null))).isNull();
        assertThat(rules.target(request(null, "11.22.33.44", null, null))).isEqualTo("https://a/wildcard");
        assertThat(rules.target(request(null, "11.22.34.44", null, null))).isNull();
        assertThat(rules.target(request(null, "2001:db8:ffff::7", null, null))).isEqualTo("https://a/v6cidr");
        assertThat(rules.target(request(null, "2001:db9::7", null, null))).isNull();
        assertThat(rules.target(request(null, "2a00:1450:0:0:0:0:0:1", null, null)))
                .isEqualTo("https://a/v6single");
        assertThat(rules.target(request(null, "2a01:abcd::1", null, null))).isEqualTo("https://a/v6wildcard");
        assertThat(rules.target(request(null, "2a01:abcd::2", null, null))).isNull();
        assertThat(rules.target(request(null, null, null, null))).isNull();
        // an IPv4 pattern never matches an IPv6 client, and back
        assertThat(compile(rule("https://a/any4", c("ip-address", null, "0.0.0.0/0")))
                        .target(request(null, "2001:db8::1", null, null)))
                .isNull();
    }

    @Test
    void datesAreStrictAtTheBoundary() {
        RuleEngine.Compiled before = compile(rule("https://a/before", c("before-date", null, "2026-06-01T12:00:00Z")));
        RuleEngine.Compiled after =
                compile(rule("https://a/after", c("after-date", null, "2026-06-01T14:00:00+02:00")));
        assertThat(before.target(agent(null))).isNull();
        assertThat(after.target(agent(null))).isNull();
        assertThat(compile(rule("https://a/b", c("before-date", null, "2026-06-01T12:00:00.001Z")))
                        .target(agent(null)))
                .isEqualTo("https://a/b");
        assertThat(compile(rule("https://a/a", c("after-date", null, "2026-06-01T11:59:59.999Z")))
                        .target(agent(null)))
                .isEqualTo("https://a/a");
        assertThat(compile(rule("https://a/d", c("after-date", null, "2026-06-01")))
                        .target(agent(null)))
                .isEqualTo("https://a/d");
    }

    @Test
    void geolocationWithoutADatabaseNeverMatches() {
        RuleEngine.Compiled rules = compile(
                rule("https://a/country", c("geolocation-country-code", null, "DE")),
                rule("https://a/city", c("geolocation-city-name", null, "Berlin")));
        assertThat(rules.target(request(null, "81.2.69.142", null, null))).isNull();
    }

    @Test
    void allConditionsOfARuleMustMatchAndTheFirstMatchingRuleWins() {
        RuleEngine.Compiled rules = compile(
                rule("https://a/android-fr", c("device", null, "android"), c("language", null, "fr")),
                rule("https://a/android", c("device", null, "android")),
                rule("https://a/fr", c("language", null, "fr")));
        assertThat(rules.target(request(null, null, ANDROID, "fr"))).isEqualTo("https://a/android-fr");
        assertThat(rules.target(request(null, null, ANDROID, "de"))).isEqualTo("https://a/android");
        assertThat(rules.target(request(null, null, IPHONE, "fr"))).isEqualTo("https://a/fr");
        assertThat(rules.target(request(null, null, IPHONE, "de"))).isNull();
        // a rule without conditions never matches, as in Shlink
        assertThat(compile(rule("https://a/none")).target(agent(IPHONE))).isNull();
    }

    @Test
    void everyConditionValueIsCheckedWhenCompiled() {
        for (LinkRules.Condition bad : List.of(
                c("nope", null, "x"),
                c("device", null, "blackberry"),
                c("device", null, null),
                c("browser", null, "netscape"),
                c("language", null, "not a language"),
                c("query-param", "k", ""),
                c("query-param", null, "v"),
                c("any-value-query-param", null, null),
                c("valueless-query-param", "", null),
                c("ip-address", null, "300.1.1.1"),
                c("ip-address", null, "10.0.0.0/33"),
                c("ip-address", null, "2001:db8::/129"),
                c("ip-address", null, "localhost"),
                c("ip-address", null, "10.1"),
                c("geolocation-country-code", null, "XX"),
                c("geolocation-city-name", null, " "),
                c("before-date", null, "tomorrow"),
                c("after-date", null, "2026-13-01"))) {
            assertThatThrownBy(() -> Conditions.compile(bad))
                    .as(bad.toString())
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aVisitorAlwaysGetsTheSameVariantAndDifferentLinksSplitIndependently() {
        picker.key("0123456789abcdef0123456789abcdef".getBytes());
        LinkRules split = new LinkRules(
                List.of(), List.of(new LinkRules.Variant("https://a/a", 1), new LinkRules.Variant("https://a/b", 1)));
        RuleEngine.Compiled rules = engine.compile(link(split));
        RuleRequest visitor = request(null, "203.0.113.9", IPHONE, null);
        String first = rules.target(visitor);
        for (int i = 0; i < 100; i++) {
            assertThat(rules.target(visitor)).isEqualTo(first);
        }
        int differ = 0;
        for (int i = 0; i < 200; i++) {
            RuleRequest other = request(null, "198.51.100." + (i % 250), "agent " + i, null);
            String a = rules.target(other);
            String b = rules.target(new RuleRequest("code2", null, other.clientIp(), other.userAgent(), null));
            differ += a.equals(b) ? 0 : 1;
        }
        assertThat(differ).isBetween(60, 140);
    }

    @Test
    void aSplitFollowsItsWeightsWithinTwoPercentOverAHundredThousandVisitors() {
        picker.key("another key, 32 bytes long......".getBytes());
        int[] weights = {70, 20, 10, 0};
        LinkRules.Rule rule = new LinkRules.Rule(
                null,
                List.of(c("any-value-query-param", "x", null)),
                List.of(
                        new LinkRules.Variant("https://a/0", weights[0]),
                        new LinkRules.Variant("https://a/1", weights[1]),
                        new LinkRules.Variant("https://a/2", weights[2]),
                        new LinkRules.Variant("https://a/3", weights[3])));
        RuleEngine.Compiled rules = engine.compile(link(new LinkRules(List.of(rule), List.of())));
        int[] seen = new int[4];
        int visitors = 100_000;
        for (int i = 0; i < visitors; i++) {
            byte[] address = {10, (byte) (i >> 16), (byte) (i >> 8), (byte) i};
            InetAddress ip;
            try {
                ip = InetAddress.getByAddress(address);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e);
            }
            String target = rules.target(new RuleRequest("code1", "x", ip, i % 3 == 0 ? IPHONE : ANDROID, null));
            seen[target.charAt(target.length() - 1) - '0']++;
        }
        for (int i = 0; i < weights.length; i++) {
            assertThat(seen[i] * 100.0 / visitors)
                    .as("variant %d of %s", i, Arrays.toString(seen))
                    .isCloseTo(weights[i], org.assertj.core.data.Offset.offset(2.0));
        }
        assertThat(seen[3]).isZero();
    }

    @Test
    void theLinksDefaultSplitAppliesWhenNoRuleMatches() {
        LinkRules rules = new LinkRules(
                List.of(rule("https://a/ios", c("device", null, "ios"))),
                List.of(new LinkRules.Variant("https://a/x", 1), new LinkRules.Variant("https://a/y", 0)));
        RuleEngine.Compiled compiled = engine.compile(link(rules));
        assertThat(compiled.target(agent(IPHONE))).isEqualTo("https://a/ios");
        assertThat(compiled.target(agent(ANDROID))).isEqualTo("https://a/x");
    }

    @Test
    void agentsAreClassifiedOnceAndGiantAgentsAreNotKept() {
        Agents agents = new Agents(10);
        assertThat(agents.of(ANDROID)).isSameAs(agents.of(ANDROID));
        String giant = "Android ".repeat(100);
        assertThat(agents.of(giant).is(Agent.Device.ANDROID)).isTrue();
        assertThat(agents.of(giant)).isNotSameAs(agents.of(giant));
    }

    @Test
    void acceptLanguageHeadersAreReadOnceAndLongOnesAreNotKept() {
        AcceptedLanguages languages = new AcceptedLanguages(10);
        List<String[]> read = languages.of("fr-CA,fr;q=0.9,en;q=0.8");
        assertThat(languages.of(new String("fr-CA,fr;q=0.9,en;q=0.8"))).isSameAs(read);
        assertThat(read).containsExactly(new String[] {"fr", "ca"}, new String[] {"fr", null});
        String longHeader = "de;q=0.5, ".repeat(30) + "it";
        assertThat(longHeader.length()).isGreaterThan(AcceptedLanguages.MAX_CACHED_LENGTH);
        assertThat(languages.of(longHeader)).isNotSameAs(languages.of(longHeader));
        assertThat(languages.of(longHeader)).containsExactly(new String[] {"it", null});

        RuleEngine.Compiled rules = compile(rule("https://a/fr", c("language", null, "fr")));
        for (int i = 0; i < 3; i++) { // a header seen before answers as the first time
            assertThat(rules.target(request(null, null, null, "de, fr;q=0.9"))).isEqualTo("https://a/fr");
            assertThat(rules.target(request(null, null, null, "de, fr;q=0.8"))).isNull();
            assertThat(rules.target(request(null, null, null, longHeader))).isNull();
        }
    }
}
