package dev.shortgate.link.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import dev.shortgate.domain.Domains;
import dev.shortgate.link.domain.DomainRedirects.Redirects;
import dev.shortgate.link.domain.DomainRedirects.Settings;
import dev.shortgate.system.problem.ProblemException;
import org.junit.jupiter.api.Test;

/** What the redirect path and a create read from a domain's settings held in memory. */
class DomainRedirectsTest {

    @Test
    void eachDomainGetsItsOwnRedirectsAndADomainWithNoneGetsNoOtherDomains() {
        DomainRedirects redirects = DomainRedirects.fixed(Map.of(
                Domains.DEFAULT_ID,
                new Redirects("https://home.example/", null, null),
                7,
                new Redirects(null, "https://seven.example/404", "https://seven.example/invalid")));

        assertThat(redirects.effective()).isEqualTo(new Redirects("https://home.example/", null, null));
        assertThat(redirects.effective(7))
                .isEqualTo(new Redirects(null, "https://seven.example/404", "https://seven.example/invalid"));
        assertThat(redirects.effective(8)).isEqualTo(Redirects.NONE);
        assertThat(redirects.effective(Domains.REFUSED)).isEqualTo(Redirects.NONE);
        assertThat(redirects.settings(8)).isEqualTo(Settings.NONE);
    }

    @Test
    void aDomainWithoutAStatusOfItsOwnCreatesWith302() {
        DomainRedirects redirects = DomainRedirects.fixed(Redirects.NONE);

        assertThat(redirects.redirectStatus(Domains.DEFAULT_ID)).isEqualTo(302);
        assertThat(redirects.redirectStatus(3)).isEqualTo(302);
        assertThat(new Settings(Redirects.NONE, 308).redirectStatus()).isEqualTo(308);
    }

    @Test
    void onlyTheFourRedirectStatusesMayBeADomainsDefault() {
        for (int status : new int[] {301, 302, 307, 308}) {
            assertThat(DomainRedirects.checkStatus(status)).isEqualTo(status);
        }
        assertThat(DomainRedirects.checkStatus(null)).isNull();
        for (int status : new int[] {200, 300, 303, 304, 404}) {
            assertThatThrownBy(() -> DomainRedirects.checkStatus(status))
                    .isInstanceOf(ProblemException.class)
                    .hasMessageContaining("defaultRedirectStatus");
        }
    }
}
