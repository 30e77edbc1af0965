package dev.shortgate.redirect.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shortgate.domain.Domains;
import org.junit.jupiter.api.Test;

/** Which domain's not-found redirects an unknown code gets: the one its host picked, read off its key. */
class RedirectDomainOfAnUnknownCodeTest {

    @Test
    void aCodeOnTheDefaultDomainIsItsOwnKey() {
        assertThat(Redirects.domainId(request("abc", "abc"))).isEqualTo(Domains.DEFAULT_ID);
    }

    @Test
    void aCodeOnAnotherDomainIsKeyedByThatDomainsId() {
        assertThat(Redirects.domainId(request("abc", "12~abc"))).isEqualTo(12);
    }

    @Test
    void aPathThatIsNoCodeStillBelongsToItsHostsDomain() {
        assertThat(Redirects.domainId(request("wp~login.php", "wp~login.php"))).isEqualTo(Domains.DEFAULT_ID);
        assertThat(Redirects.domainId(request("wp~login.php", "4~wp~login.php")))
                .isEqualTo(4);
    }

    @Test
    void aRefusedHostHasNoDomain() {
        assertThat(Redirects.domainId(request("abc", null))).isEqualTo(Domains.REFUSED);
    }

    private static Redirects.Request request(String code, String key) {
        return new Redirects.Request(code, true, null, null, null, null, null, key);
    }
}
