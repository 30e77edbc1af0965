package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.stream.Stream;

import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import dev.shortgate.system.settings.ShortgateProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpStatus;

class UrlPolicyTest {

    final UrlPolicy policy = new UrlPolicy(new ShortgateProperties(URI.create("https://sho.rt")));

    // --- refusals -------------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(
            strings = {
                "javascript:alert(1)",
                "JavaScript://example.com/%0aalert(1)",
                "data:text/html,<b>x</b>",
                "vbscript:msgbox(1)",
                "file:///etc/passwd",
                "ftp://files.example.com/a.txt",
                "mailto:a@example.com",
                "ws://example.com/socket",
                "httpx://example.com/"
            })
    void schemesOtherThanHttpAndHttpsAreRefused(String url) {
        assertRefused(url, Problem.URL_SCHEME_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://", "https://", "http:///x", "https:///", "http://:80/", "https://?q", "http://#f"})
    void urlsWithoutHostAreRefused(String url) {
        assertRefused(url, Problem.INVALID_URL);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://a@b",
                "http://u:p@host/",
                "https://sho.rt@evil.com/",
                "https://@example.com/",
                "https://user:@example.com:8443/x"
            })
    void userinfoIsRefused(String url) {
        assertRefused(url, Problem.URL_USERINFO_NOT_ALLOWED);
    }

    @Test
    void atSignAfterTheAuthorityIsNotUserinfo() {
        assertThat(policy.normalize("https://example.com/@user?by=@me#@x"))
                .isEqualTo("https://example.com/@user?by=@me#@x");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https:\\\\evil.com",
                "https://a.com\\@b",
                "https://example.com\\path",
                "http:\\/evil.com/",
                "https://example.com/a\\b"
            })
    void backslashesAreRefused(String url) {
        assertThat(refusal(url)).satisfies(e -> {
            assertThat(e.problem()).isEqualTo(Problem.INVALID_URL);
            assertThat(e.getBody().getDetail()).contains("backslash");
        });
    }

    static Stream<Arguments> controlCharactersAndSpaces() {
        return Stream.of(
                Arguments.of("CR", "https://example.com/\r"),
                Arguments.of("LF", "https://example.com/a\nSet-Cookie:x=1"),
                Arguments.of("CRLF", "https://example.com/\r\nLocation: https://evil.com"),
                Arguments.of("NUL", "https://example.com/\0"),
                Arguments.of("tab", "https://example.com/\ta"),
                Arguments.of("tab in host", "https://exam\tple.com/"),
                Arguments.of("space", "https://example.com/a b"),
                Arguments.of("leading space", " https://example.com/"),
                Arguments.of("trailing space", "https://example.com/ "),
                Arguments.of("DEL", "https://example.com/\u007f"),
                Arguments.of("C1 NEL", "https://example.com/\u0085"),
                Arguments.of("no-break space", "https://example.com/\u00a0"),
                Arguments.of("ideographic space", "https://example.com/\u3000"),
                Arguments.of("line separator", "https://example.com/\u2028"),
                Arguments.of("escape", "https://example.com/\u001b[31m"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("controlCharactersAndSpaces")
    void controlCharactersAndSpacesAreRefused(String what, String url) {
        assertThat(refusal(url)).satisfies(e -> {
            assertThat(e.problem()).isEqualTo(Problem.INVALID_URL);
            assertThat(e.getBody().getDetail()).contains("space or control character");
        });
    }

    @Test
    void controlCharacterDetailNamesItsIndex() {
        assertThat(refusal("https://example.com/ab\ncd").getBody().getDetail()).contains("index 22");
    }

    @Test
    void urlsUpToFourThousandNinetySixCharactersAreAccepted() {
        String url = urlOfLength(UrlPolicy.MAX_LENGTH);

        assertThat(policy.normalize(url)).isEqualTo(url).hasSize(4096);
    }

    @Test
    void urlsLongerThanFourThousandNinetySixCharactersAreRefused() {
        ProblemException e = refusal(urlOfLength(UrlPolicy.MAX_LENGTH + 1));

        assertThat(e.problem()).isEqualTo(Problem.URL_TOO_LONG);
        assertThat(e.getBody().getDetail()).contains("4097").contains("4096");
        assertRefused("https://example.com/" + "a".repeat(100_000), Problem.URL_TOO_LONG);
    }

    @Test
    void urlThatGrowsPastTheLimitWhenNormalisedIsRefused() {
        // 2,000 'é' are 2,000 characters raw but 12,000 once percent-encoded as UTF-8.
        String url = "https://example.com/" + "é".repeat(2_000);
        assertThat(url.length()).isLessThanOrEqualTo(UrlPolicy.MAX_LENGTH);

        assertRefused(url, Problem.URL_TOO_LONG);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://sho.rt/abc",
                "http://sho.rt/abc",
                "https://SHO.RT/abc",
                "https://Sho.Rt",
                "https://sho.rt./abc",
                "https://SHO.RT.:443/",
                "https://sho.rt:8443/abc",
                "http://sho.rt:80/",
                "https://sho.rt?x=1",
                "https://sho.rt#top",
                "https://\uff53\uff48\uff4f.\uff52\uff54/abc", // full-width letters, which IDNA maps to sho.rt
                "https://sho\u3002rt/abc"
            }) // ideographic full stop, which IDNA maps to '.'
    void linksToTheShortenersOwnHostAreRefused(String url) {
        assertRefused(url, Problem.URL_SELF_LINK);
    }

    @Test
    void selfLinkIsJudgedAgainstTheBaseUrlHostWhateverItsSpelling() {
        UrlPolicy policy = new UrlPolicy(new ShortgateProperties(URI.create("https://Sho.RT.:8443/base/")));

        assertThat(refusal(policy, "http://sho.rt/x").problem()).isEqualTo(Problem.URL_SELF_LINK);
        assertThat(refusal(policy, "https://www.sho.rt/x").problem()).isEqualTo(Problem.URL_SELF_LINK);
        assertThat(policy.normalize("https://sho.rt.example/x")).isEqualTo("https://sho.rt.example/x");
    }

    @Test
    void linksToAnAddedShortDomainOrItsSubdomainsAreSelfLinksAsLongAsItIsOne() {
        Set<String> added = new CopyOnWriteArraySet<>(List.of("go.example.com", "xn--bcher-kva.example"));
        UrlPolicy policy = new UrlPolicy(
                new ShortgateProperties(URI.create("https://sho.rt")), UrlPolicyProperties.defaults(), added::contains);

        for (String url : List.of(
                "https://go.example.com/x",
                "HTTP://GO.Example.COM.:8080/x",
                "https://www.go.example.com/",
                "https://b\u00fccher.example/x",
                "https://xn--bcher-kva.example/x")) {
            assertThat(refusal(policy, url).problem()).as(url).isEqualTo(Problem.URL_SELF_LINK);
        }
        assertThat(policy.normalize("https://example.com/x")).isEqualTo("https://example.com/x");
        assertThat(policy.normalize("https://notgo.example.com/x")).isEqualTo("https://notgo.example.com/x");

        added.remove("go.example.com");
        assertThat(policy.normalize("https://go.example.com/x")).isEqualTo("https://go.example.com/x");
    }

    @Test
    void otherHostsThatMerelyMentionTheShortenerAreAccepted() {
        assertThat(policy.normalize("https://evil.com/?next=https://sho.rt/x"))
                .isEqualTo("https://evil.com/?next=https://sho.rt/x");
        assertThat(policy.normalize("https://evil.com?@sho.rt")).isEqualTo("https://evil.com/?@sho.rt");
        assertThat(policy.normalize("https://notsho.rt/")).isEqualTo("https://notsho.rt/");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "//evil.com",
                "//evil.com/path",
                "http:/x",
                "https:evil.com",
                "http:x/y",
                "/relative/path",
                "example.com/page",
                "://example.com",
                "1http://example.com/",
                ":",
                "https"
            })
    void relativeAndMalformedUrlsAreRefused(String url) {
        assertRefused(url, Problem.INVALID_URL);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://example.com/%zz",
                "https://example.com/%4",
                "https://example.com/%",
                "https://example.com/?q=%g0",
                "https://example.com/#%2",
                "https://example.com/100%"
            })
    void invalidPercentEscapesAreRefused(String url) {
        assertThat(refusal(url)).satisfies(e -> {
            assertThat(e.problem()).isEqualTo(Problem.INVALID_URL);
            assertThat(e.getBody().getDetail()).contains("percent-escape");
        });
    }

    @Test
    void invalidPercentEscapeDetailNamesItsIndexInTheUrl() {
        // The '%' is at index 22 of the URL as given.
        assertThat(refusal("https://example.com/ab%zz").getBody().getDetail()).contains("index 22");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"https://example.com/\ud800", "https://example.com/a\udc00b", "https://example.com/?q=\ud83d"})
    void unpairedSurrogatesAreRefusedRatherThanRewritten(String url) {
        assertRefused(url, Problem.INVALID_URL);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://a.com:0/",
                "http://a.com:65536/",
                "http://a.com:99999/",
                "http://a.com:abc/",
                "http://a.com:-1/",
                "http://a.com:123456/",
                "http://a.com:80:80/"
            })
    void invalidPortsAreRefused(String url) {
        assertRefused(url, Problem.INVALID_URL);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://..example.com/",
                "http://a..com/",
                "http://-a.com/",
                "http://%65vil.com/",
                "http://exa_mple.com/",
                "http://[::1/",
                "http://[::1]x/",
                "https://a.com:443:443/",
                "https://a\ud800.com/"
            })
    void invalidHostsAreRefused(String url) {
        assertRefused(url, Problem.INVALID_URL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "x"})
    void emptyOrSchemelessInputIsRefused(String url) {
        assertRefused(url, Problem.INVALID_URL);
    }

    @Test
    void nullIsRefusedAsRequired() {
        assertThat(refusal(null).getBody().getDetail()).isEqualTo("url is required.");
    }

    @Test
    void refusalIsABadRequestProblemNamingTheUrlField() {
        ProblemException e = refusal("ftp://example.com/");

        assertThat(e.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(e.getBody().getType())
                .isEqualTo(URI.create("https://shortgate.dev/problems/url-scheme-not-allowed"));
        assertThat(e.getBody().getProperties()).containsEntry("field", "url");
    }

    // --- normalisation --------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ' ',
            value = {
                "HTTPS://EXAMPLE.COM/Path?Query=Value#Frag https://example.com/Path?Query=Value#Frag",
                "HtTp://Example.Com/ http://example.com/",
                "https://BÜCHER.example/ https://xn--bcher-kva.example/",
                "https://bücher.example https://xn--bcher-kva.example/",
                "https://XN--BCHER-KVA.example/ https://xn--bcher-kva.example/",
                "http://例え.テスト/パス http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9",
                "https://example.com:443/a https://example.com/a",
                "http://example.com:80/a http://example.com/a",
                "http://example.com:0080/a http://example.com/a",
                "https://example.com:80/a https://example.com:80/a",
                "http://example.com:443/a http://example.com:443/a",
                "https://example.com:8443/a https://example.com:8443/a",
                "http://example.com: http://example.com/",
                "https://example.com https://example.com/",
                "https://example.com?q=1 https://example.com/?q=1",
                "https://example.com#top https://example.com/#top",
                "https://example.com/A/b/C?X=Y&z=W https://example.com/A/b/C?X=Y&z=W",
                "https://example.com/a%0d%0aSet-Cookie:x https://example.com/a%0d%0aSet-Cookie:x",
                "https://example.com/%2F%2e%2E https://example.com/%2F%2e%2E",
                "https://example.com/ü https://example.com/%C3%BC",
                "https://example.com/?q=café#é https://example.com/?q=caf%C3%A9#%C3%A9",
                "https://example.com/😀 https://example.com/%F0%9F%98%80",
                "https://example.com/a|b^c`d https://example.com/a%7Cb%5Ec%60d",
                "https://example.com/[x]{y} https://example.com/%5Bx%5D%7By%7D",
                "https://example.com/a\"b<c>d https://example.com/a%22b%3Cc%3Ed",
                "https://example.com/./a/../b https://example.com/./a/../b",
                "http://93.184.215.14:80/x http://93.184.215.14/x",
                "http://[2606:4700:4700::1111]:80/x http://[2606:4700:4700::1111]/x",
                "http://[2606:4700:4700::ABCD]:8080/ http://[2606:4700:4700::abcd]:8080/",
                "https://sho.rt.example/ https://sho.rt.example/"
            })
    void urlsAreNormalised(String raw, String normalised) {
        assertThat(policy.normalize(raw)).isEqualTo(normalised);
    }

    @Test
    void differentSpellingsOfOneUrlNormaliseToTheSameString() {
        List<String> spellings = List.of(
                "https://xn--bcher-kva.example/",
                "https://xn--bcher-kva.example",
                "HTTPS://XN--BCHER-KVA.EXAMPLE:443/",
                "https://BÜCHER.example",
                "https://bücher.example:443",
                "hTTpS://BüCHER.ExAmPlE:0443/");

        assertThat(spellings).extracting(policy::normalize).containsOnly("https://xn--bcher-kva.example/");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "HTTPS://BÜCHER.example:443/ü?q=é#f",
                "http://Example.com:8080",
                "https://a.com/%0d%0a",
                "https://example.com/a|b",
                "http://[2606:4700::1]:80"
            })
    void normalisingIsIdempotent(String raw) {
        String once = policy.normalize(raw);

        assertThat(policy.normalize(once)).isEqualTo(once);
    }

    @Test
    void normalisedUrlsParseAsUrisWithTheSameHost() {
        String normalised = policy.normalize("https://BÜCHER.example:8443/ä%20b");

        URI uri = URI.create(normalised);
        assertThat(uri.getHost()).isEqualTo("xn--bcher-kva.example");
        assertThat(uri.getPort()).isEqualTo(8443);
        assertThat(uri.getRawPath()).isEqualTo("/%C3%A4%20b");
    }

    // --- private and reserved hosts -------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://127.0.0.1/",
                "http://127.255.255.254/",
                "https://127.0.0.1:8443/admin",
                "http://10.0.0.1/",
                "http://10.255.255.255/",
                "http://172.16.0.1/",
                "http://172.31.255.255/",
                "http://192.168.1.1/",
                "http://169.254.169.254/latest/meta-data/",
                "http://169.254.0.1/",
                "http://0.0.0.0/",
                "http://0.1.2.3/",
                "http://100.64.0.1/",
                "http://100.127.255.255/",
                "http://224.0.0.1/",
                "http://239.255.255.250/",
                "http://240.0.0.1/",
                "http://255.255.255.255/",
                "http://192.0.0.8/",
                "http://192.0.2.1/",
                "http://198.18.0.1/",
                "http://198.51.100.7/",
                "http://203.0.113.9/",
                "http://192.88.99.1/"
            })
    void privateLoopbackLinkLocalAndReservedIpv4HostsAreRefused(String url) {
        assertRefused(url, Problem.URL_HOST_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://2130706433/",
                "http://0177.0.0.1/",
                "http://0x7f.0.0.1/",
                "http://0x7f000001/",
                "http://0X7F000001/",
                "http://127.1/",
                "http://10.1/",
                "http://0x7f.1/",
                "http://017700000001/",
                "http://0/",
                "http://0x/",
                "http://127.0.0.1./",
                "http://0xa9fea9fe/",
                "http://2852039166/",
                "http://0251.0376.0251.0376/",
                "http://169.254.43518/",
                "http://192.168.257/",
                "http://3232235777/",
                "http://00000000000000000000177.0.0.1/",
                "http://0x000000007f.0.0.1/",
                "http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", // full-width digits, which IDNA maps to 127.0.0.1
                "http://127\u30020\u30020\u30021/"
            }) // ideographic full stops
    void numericFormsThatBrowsersReadAsPrivateIpv4AreRefused(String url) {
        assertRefused(url, Problem.URL_HOST_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://[::1]/",
                "http://[::]/",
                "http://[0:0:0:0:0:0:0:1]/",
                "http://[0000::0001]:8080/",
                "http://[fe80::1]/",
                "http://[febf:ffff::1]/",
                "http://[fc00::1]/",
                "http://[fd12:3456:789a::1]/",
                "http://[fec0::1]/",
                "http://[ff02::1]/",
                "http://[ff0e::1]/",
                "http://[::ffff:127.0.0.1]/",
                "http://[::ffff:7f00:1]/",
                "http://[::FFFF:7F00:0001]/",
                "http://[::ffff:10.0.0.1]/",
                "http://[::ffff:169.254.169.254]/",
                "http://[::ffff:a9fe:a9fe]/",
                "http://[::ffff:0.0.0.0]/",
                "http://[::127.0.0.1]/",
                "http://[::7f00:1]/",
                "http://[::8.8.8.8]/",
                "http://[64:ff9b::10.0.0.1]/",
                "http://[64:ff9b::7f00:1]/",
                "http://[64:ff9b:1::1]/",
                "http://[2002:7f00:1::]/",
                "http://[2002:a9fe:a9fe::1]/",
                "http://[2001:db8::1]/",
                "http://[2001::1]/",
                "http://[2001:1ff::1]/",
                "http://[100::1]/",
                "http://[3fff::1]/",
                "http://[5f00::1]/",
                "http://[4000::1]/",
                "http://[::2]/"
            })
    void privateLoopbackLinkLocalAndReservedIpv6HostsAreRefused(String url) {
        assertRefused(url, Problem.URL_HOST_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://localhost/",
                "http://LOCALHOST:8080/",
                "http://localhost./",
                "http://foo.localhost/",
                "http://a.b.localhost:3000/",
                "http://metadata/computeMetadata/v1/",
                "http://metadata.google.internal/",
                "http://METADATA.GOOGLE.INTERNAL./computeMetadata/v1/",
                "http://instance-data/latest/meta-data/",
                "http://instance-data.ec2.internal/",
                "http://printer.local/",
                "http://router.home.arpa/",
                "http://host.localdomain/",
                "http://intranet/",
                "http://xn--bcher-kva/",
                "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/"
            }) // full-width "localhost"
    void localAndMetadataHostNamesAreRefused(String url) {
        assertRefused(url, Problem.URL_HOST_NOT_ALLOWED);
    }

    @Test
    void privateAddressIsJudgedBeforeTheSelfLink() {
        UrlPolicy policy = new UrlPolicy(new ShortgateProperties(URI.create("http://localhost:8080")));

        assertThat(refusal(policy, "http://localhost:8080/x").problem()).isEqualTo(Problem.URL_HOST_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://1.2.3.4.5/",
                "http://1.2.3.4.5./",
                "http://256.256.256.256/",
                "http://256.0.0.1/",
                "http://1.2.3.256/",
                "http://1.2.65536/",
                "http://1.16777216/",
                "http://4294967296/",
                "http://0x100000000/",
                "http://09.1.1.1/",
                "http://1.2.3.08/",
                "http://0x7g.1/",
                "http://example.0x/",
                "http://a.1/",
                "http://999999999999999999999999/",
                "http://[::1::]/",
                "http://[1:2:3:4:5:6:7:8:9]/",
                "http://[1:2:3:4:5:6:7]/",
                "http://[fe80::1%25eth0]/",
                "http://[::ffff:127.0.0.01]/",
                "http://[12345::]/",
                "http://[]/",
                "http://[::1.2.3]/",
                "http://[::1.2.3.4.5]/",
                "http://[:1]/",
                "http://[1:]/",
                "http://[::g]/",
                "http://[v1.x]/",
                "https://a\u0661\u0662.com/"
            }) // Latin with Arabic-Indic digits breaks the IDNA bidi rule
    void invalidNumericHostsAreRefusedAsInvalid(String url) {
        assertRefused(url, Problem.INVALID_URL);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ' ',
            value = {
                "http://93.184.215.14/ http://93.184.215.14/",
                "http://1572394766/ http://93.184.215.14/",
                "http://0x5db8d70e/x http://93.184.215.14/x",
                "http://0x5D.0xB8.0xD7.0x0E/ http://93.184.215.14/",
                "http://0135.0270.0327.016/ http://93.184.215.14/",
                "http://93.12113678/ http://93.184.215.14/",
                "http://93.184.55054/ http://93.184.215.14/",
                "http://8.8.8.8./ http://8.8.8.8/",
                "https://8.8.2056:443/ https://8.8.8.8/",
                "http://[2606:4700:4700:0:0:0:0:1111]/ http://[2606:4700:4700::1111]/",
                "http://[2606:4700:0:0:1:0:0:1]/ http://[2606:4700::1:0:0:1]/",
                "http://[2001:4860:4860::8888]:443/ http://[2001:4860:4860::8888]:443/",
                "http://[::ffff:8.8.8.8]/ http://[::ffff:808:808]/",
                "http://[64:ff9b::8.8.8.8]/ http://[64:ff9b::808:808]/",
                "http://[2002:808:808::1]/ http://[2002:808:808::1]/",
                "http://[2001:200::1]/ http://[2001:200::1]/"
            })
    void publicIpHostsAreAcceptedInTheirCanonicalForm(String raw, String normalised) {
        assertThat(policy.normalize(raw)).isEqualTo(normalised);
        assertThat(policy.normalize(normalised)).isEqualTo(normalised);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ' ',
            value = {
                "http://127.0.0.1:80/x http://127.0.0.1/x",
                "http://127.0.0.1:45678/landing?from=e2e http://127.0.0.1:45678/landing?from=e2e",
                "http://0x7f.1:8080/ http://127.0.0.1:8080/",
                "http://[::1]:80/x http://[::1]/x",
                "http://[::ffff:127.0.0.1]/ http://[::ffff:7f00:1]/",
                "http://LOCALHOST:3000/ http://localhost:3000/",
                "http://169.254.169.254/latest/ http://169.254.169.254/latest/",
                "http://metadata.google.internal/ http://metadata.google.internal/"
            })
    void privateHostsAreAcceptedWhenAllowed(String raw, String normalised) {
        UrlPolicy lab = new UrlPolicy(
                new ShortgateProperties(URI.create("https://sho.rt")),
                UrlPolicyProperties.defaults().withAllowPrivateHosts(true));

        assertThat(lab.normalize(raw)).isEqualTo(normalised);
    }

    @Test
    void allowingPrivateHostsKeepsEveryOtherRule() {
        UrlPolicy lab = new UrlPolicy(
                new ShortgateProperties(URI.create("http://127.0.0.1:8080")),
                UrlPolicyProperties.defaults().withAllowPrivateHosts(true));

        assertThat(refusal(lab, "http://127.0.0.1:9000/").problem()).isEqualTo(Problem.URL_SELF_LINK);
        assertThat(refusal(lab, "http://2130706433/").problem()).isEqualTo(Problem.URL_SELF_LINK);
        assertThat(refusal(lab, "http://1.2.3.4.5/").problem()).isEqualTo(Problem.INVALID_URL);
        assertThat(refusal(lab, "https://bit.ly/x").problem()).isEqualTo(Problem.URL_SHORTENER_NOT_ALLOWED);
        assertThat(refusal(lab, "https://xn--pple-43d.com/").problem()).isEqualTo(Problem.URL_HOMOGRAPH);
        assertThat(refusal(lab, "http://u@localhost/").problem()).isEqualTo(Problem.URL_USERINFO_NOT_ALLOWED);
        assertThat(lab.normalize("http://localhost:9000/")).isEqualTo("http://localhost:9000/");
    }

    // --- own domains, shorteners, deny list -----------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://go.example/x",
                "https://GO.EXAMPLE./x",
                "http://go.example:8443/x",
                "https://links.go.example/",
                "https://xn--bcher-kva.example/",
                "https://B\u00dcCHER.example./",
                "https://www.sho.rt/",
                "https://a.b.sho.rt:444/",
                "https://SHO.RT./"
            })
    void configuredOwnDomainsAndTheirSubdomainsAreSelfLinks(String url) {
        UrlPolicy policy = new UrlPolicy(
                new ShortgateProperties(URI.create("https://sho.rt")),
                UrlPolicyProperties.defaults().withOwnDomains("Go.Example.", "b\u00fccher.example"));

        assertThat(refusal(policy, url).problem()).isEqualTo(Problem.URL_SELF_LINK);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://notgo.example/",
                "https://go.example.com/",
                "https://go.examples/",
                "https://example/x.go.example",
                "https://ago.example/"
            })
    void hostsThatOnlyResembleOwnDomainsAreAccepted(String url) {
        UrlPolicy policy = new UrlPolicy(
                new ShortgateProperties(URI.create("https://sho.rt")),
                UrlPolicyProperties.defaults().withOwnDomains("go.example").withAllowPrivateHosts(true));

        assertThat(policy.normalize(url)).startsWith("https://");
    }

    @Test
    void ipv6BaseUrlHostIsASelfLinkInAnySpelling() {
        UrlPolicy policy = new UrlPolicy(
                new ShortgateProperties(URI.create("http://[0:0::1]:8080")),
                UrlPolicyProperties.defaults().withAllowPrivateHosts(true));

        assertThat(refusal(policy, "http://[::1]:1234/").problem()).isEqualTo(Problem.URL_SELF_LINK);
        assertThat(refusal(policy, "http://[0:0:0:0:0:0:0:1]/").problem()).isEqualTo(Problem.URL_SELF_LINK);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://bit.ly/abc",
                "https://BIT.LY./abc",
                "http://bit.ly:80/x",
                "https://www.bit.ly/",
                "https://bitly.com/x",
                "https://tinyurl.com/x",
                "https://preview.tinyurl.com/x",
                "https://t.co/x",
                "https://goo.gl/x",
                "https://ow.ly/x",
                "https://is.gd/x",
                "https://v.gd/x",
                "https://buff.ly/x",
                "https://rebrand.ly/x",
                "https://cutt.ly/x",
                "https://shorturl.at/x",
                "https://tiny.cc/x",
                "https://rb.gy/x",
                "https://bl.ink/x",
                "https://short.io/x",
                "https://s.id/x",
                "https://lnkd.in/x",
                "https://dub.sh/x",
                "https://kutt.it/x",
                "https://t.ly/x",
                "https://tiny.one/x",
                "https://shorte.st/x",
                "https://adf.ly/x",
                "https://trib.al/x",
                "https://y2u.be/x"
            })
    void knownShortenersAndTheirSubdomainsAreRefused(String url) {
        assertRefused(url, Problem.URL_SHORTENER_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://bit.lyrics.com/",
                "https://notbit.ly/",
                "https://microsoft.co/",
                "https://t.com/",
                "https://example.com/?u=https://bit.ly/x",
                "https://bit.ly.example.com/"
            })
    void hostsThatOnlyResembleShortenersAreAccepted(String url) {
        assertThat(policy.normalize(url)).isEqualTo(url);
    }

    @Test
    void shortenerListIsConfigurable() {
        UrlPolicy none = new UrlPolicy(
                new ShortgateProperties(URI.create("https://sho.rt")),
                UrlPolicyProperties.defaults().withShortenerDomains());
        UrlPolicy custom = new UrlPolicy(
                new ShortgateProperties(URI.create("https://sho.rt")),
                UrlPolicyProperties.defaults().withShortenerDomains("Short.Example."));

        assertThat(none.normalize("https://bit.ly/x")).isEqualTo("https://bit.ly/x");
        assertThat(custom.normalize("https://bit.ly/x")).isEqualTo("https://bit.ly/x");
        assertThat(refusal(custom, "https://go.short.example/x").problem())
                .isEqualTo(Problem.URL_SHORTENER_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://evil.example/",
                "https://EVIL.EXAMPLE./",
                "https://a.b.evil.example:8443/x",
                "https://bad.test/",
                "https://xn--bcher-kva.example/",
                "https://b\u00fccher.example/",
                "http://8.8.4.4/",
                "http://0x08080404/",
                "http://134743044/",
                "http://[2001:4860:4860:0:0:0:0:8844]/",
                "http://[2001:4860:4860::8844]:8080/"
            })
    void deniedHostsAndTheirSubdomainsAreRefused(String url) {
        UrlPolicy policy = new UrlPolicy(
                new ShortgateProperties(URI.create("https://sho.rt")),
                UrlPolicyProperties.defaults()
                        .withDenyHosts(
                                "evil.example",
                                "BAD.TEST.",
                                "B\u00dcCHER.example",
                                "8.8.4.4",
                                "[2001:4860:4860::8844]"));

        assertThat(refusal(policy, url).problem()).isEqualTo(Problem.URL_HOST_DENIED);
        assertThat(refusal(policy, url).getBody().getType())
                .isEqualTo(URI.create("https://shortgate.dev/problems/url-host-denied"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://notevil.example/",
                "https://evil.example.com/",
                "http://8.8.4.5/",
                "https://example.com/evil.example"
            })
    void hostsThatOnlyResembleDeniedHostsAreAccepted(String url) {
        UrlPolicy policy = new UrlPolicy(
                new ShortgateProperties(URI.create("https://sho.rt")),
                UrlPolicyProperties.defaults().withDenyHosts("evil.example", "8.8.4.4"));

        assertThat(policy.normalize(url)).isEqualTo(url);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://evil.com",
                "evil.com:443",
                "evil.com/path",
                "",
                " ",
                "1.2.3.4.5",
                "a..b",
                "exa_mple.com",
                "[::1",
                "u@evil.com"
            })
    void configuredHostsThatAreNoHostsStopTheStart(String entry) {
        ShortgateProperties base = new ShortgateProperties(URI.create("https://sho.rt"));

        assertThatIllegalArgumentException()
                .isThrownBy(
                        () -> new UrlPolicy(base, UrlPolicyProperties.defaults().withDenyHosts(entry)))
                .withMessageContaining("shortgate.security.url.deny-hosts");
        assertThatIllegalArgumentException()
                .isThrownBy(
                        () -> new UrlPolicy(base, UrlPolicyProperties.defaults().withOwnDomains(entry)))
                .withMessageContaining("shortgate.security.url.own-domains");
    }

    // --- homographs -----------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://\u0430pple.com/", // Cyrillic a in a Latin label
                "https://xn--pple-43d.com/", // the same, already in punycode
                "https://XN--PPLE-43D.COM/",
                "https://payp\u0430l.com/", // Cyrillic a
                "https://g\u043e\u043egle.com/", // Cyrillic o
                "https://www.\u0430pple.com/", // in a subdomain label
                "https://\u03b1pple.com/", // Greek alpha in a Latin label
                "https://\u0430\u0440\u0440\u04cf\u0435.com/", // all Cyrillic, looks like apple
                "https://xn--80ak6aa92e.com/",
                "https://\u0251pple.com/", // Latin alpha, looks like apple
                "https://\u0131bm.com/", // dotless i, looks like ibm
                "https://\u0441\u0430\u0445\u0430\u0440.com/", // Cyrillic, looks like caxap
                "https://\u0967\u0968\u0969abc.com/"
            }) // Devanagari digits with Latin letters
    void homographHostsAreRefused(String url) {
        assertRefused(url, Problem.URL_HOMOGRAPH);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ' ',
            value = {
                "https://bücher.example https://xn--bcher-kva.example/",
                "https://例え.jp https://xn--r8jz45g.jp/",
                "https://日本語.jp/ https://xn--wgv71a119e.jp/",
                "https://münchen.de/ https://xn--mnchen-3ya.de/",
                "https://straße.de/ https://xn--strae-oqa.de/",
                "https://한국.kr/ https://xn--3e0b707e.kr/",
                "https://пример.рф/ https://xn--e1afmkfd.xn--p1ai/",
                "https://сахар.рф/ https://xn--80aa2cbv.xn--p1ai/",
                "https://παράδειγμα.δοκιμή/ https://xn--hxajbheg2az3al.xn--jxalpdlp/",
                "https://r3---sn-abc.googlevideo.com/v https://r3---sn-abc.googlevideo.com/v",
                "https://xn--bcher-kva.example./ https://xn--bcher-kva.example/"
            })
    void internationalHostsInOneScriptAreAcceptedAsPunycode(String raw, String normalised) {
        assertThat(policy.normalize(raw)).isEqualTo(normalised);
        assertThat(policy.normalize(normalised)).isEqualTo(normalised);
    }

    // --- trailing dot ---------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ' ',
            value = {
                "http://a.com./ http://a.com/",
                "http://a.com. http://a.com/",
                "https://EXAMPLE.COM.:443/x https://example.com/x",
                "https://example.com.:8443?q https://example.com:8443/?q",
                "http://a.com.:/x./.. http://a.com/x./..",
                "https://bücher.example。/ https://xn--bcher-kva.example/"
            })
    void aTrailingDotIsDropped(String raw, String normalised) {
        assertThat(policy.normalize(raw)).isEqualTo(normalised);
        assertThat(policy.normalize(raw)).isEqualTo(policy.normalize(normalised));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://a.com../", "http://./", "http://../", "http://.a.com/", "http://a..com./"})
    void emptyLabelsAreRefused(String url) {
        assertRefused(url, Problem.INVALID_URL);
    }

    // --- one Location value ---------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://example.com/a%0d%0aSet-Cookie:x=1",
                "https://example.com/%0D%0A%0d%0a",
                "https://example.com/?q=%0a#%0d",
                "https://bücher.example/ü?é#ö",
                "http://0x5db8d70e/%00"
            })
    void normalisedUrlsAreOneAsciiHeaderValue(String raw) {
        String normalised = policy.normalize(raw);

        assertThat(normalised).matches("https?://[\\x21-\\x7e]+").doesNotContain("\r", "\n", " ");
        assertThat(policy.normalize(normalised)).isEqualTo(normalised);
    }

    @Test
    void defaultSettingsAreTheDocumentedOnes() {
        UrlPolicyProperties defaults = UrlPolicyProperties.defaults();

        assertThat(defaults.ownDomains()).isEmpty();
        assertThat(defaults.denyHosts()).isEmpty();
        assertThat(defaults.allowPrivateHosts()).isFalse();
        assertThat(defaults.shortenerDomains())
                .contains(
                        "bit.ly",
                        "tinyurl.com",
                        "t.co",
                        "goo.gl",
                        "ow.ly",
                        "is.gd",
                        "v.gd",
                        "buff.ly",
                        "rebrand.ly",
                        "cutt.ly",
                        "shorturl.at",
                        "tiny.cc",
                        "rb.gy",
                        "bl.ink",
                        "short.io",
                        "s.id",
                        "lnkd.in",
                        "dub.sh",
                        "kutt.it",
                        "t.ly",
                        "tiny.one",
                        "shorte.st",
                        "adf.ly",
                        "trib.al",
                        "y2u.be")
                .doesNotHaveDuplicates();
    }

    // --- helpers --------------------------------------------------------------------------------------------

    private void assertRefused(String url, Problem problem) {
        ProblemException e = refusal(url);
        assertThat(e.problem()).as("problem for %s", url).isEqualTo(problem);
        assertThat(e.getBody().getType()).isEqualTo(problem.type());
        assertThat(e.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
    }

    private ProblemException refusal(String url) {
        return refusal(policy, url);
    }

    private static ProblemException refusal(UrlPolicy policy, String url) {
        ProblemException e = catchThrowableOfType(ProblemException.class, () -> policy.normalize(url));
        assertThat(e).as("refusal of %s", url).isNotNull();
        assertThat(e.getBody().getProperties()).containsEntry("field", "url");
        return e;
    }

    private static String urlOfLength(int length) {
        String prefix = "https://example.com/";
        return prefix + "a".repeat(length - prefix.length());
    }
}
