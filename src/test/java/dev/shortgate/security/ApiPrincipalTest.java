package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import org.junit.jupiter.api.Test;

/** What a key limited to one domain may do, next to a key of every domain. */
class ApiPrincipalTest {

    private final ApiPrincipal everyDomainAdmin = new ApiPrincipal(1L, "admin", ApiScope.ADMIN);
    private final ApiPrincipal domainAdmin = new ApiPrincipal(2L, "brand", ApiScope.ADMIN, 7);
    private final ApiPrincipal domainCreator = new ApiPrincipal(3L, "campaign", ApiScope.CREATE, 7);

    @Test
    void aKeyOfEveryDomainMayUseAnyDomainAndTheAdminOnlyEndpoints() {
        assertThat(everyDomainAdmin.isDomainLimited()).isFalse();
        assertThat(everyDomainAdmin.mayUse(0)).isTrue();
        assertThat(everyDomainAdmin.mayUse(7)).isTrue();
        assertThat(everyDomainAdmin.isAdmin()).isTrue();
        assertThat(everyDomainAdmin.require(ApiScope.ADMIN)).isSameAs(everyDomainAdmin);
    }

    @Test
    void aDomainLimitedKeyMayUseOnlyItsDomain() {
        assertThat(domainAdmin.mayUse(7)).isTrue();
        assertThat(domainAdmin.mayUse(0)).isFalse();
        assertThat(domainAdmin.mayUse(8)).isFalse();
        domainAdmin.checkDomain(7, "mine.example");
        assertThatThrownBy(() -> domainAdmin.checkDomain(0, "sho.rt"))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.DOMAIN_NOT_ALLOWED);
                    assertThat(e.getBody().getStatus()).isEqualTo(403);
                    assertThat(e.getBody().getType().toString())
                            .isEqualTo("https://shortgate.dev/problems/domain-not-allowed");
                    assertThat(e.getBody().getProperties()).containsEntry("domain", "sho.rt");
                });
    }

    @Test
    void aDomainLimitedAdminKeyIsNoAdminForAdminOnlyEndpointsButChangesAnyLinkOfItsDomain() {
        assertThat(domainAdmin.isAdmin()).isFalse();
        assertThatThrownBy(() -> domainAdmin.require(ApiScope.ADMIN))
                .isInstanceOfSatisfying(
                        ProblemException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DOMAIN_NOT_ALLOWED));
        assertThat(domainAdmin.requireOnDomain(ApiScope.ADMIN, ApiScope.CREATE)).isSameAs(domainAdmin);
        assertThat(domainAdmin.canChange(99L)).isTrue();
    }

    @Test
    void aDomainLimitedCreateKeyChangesOnlyItsOwnLinksAndIsRefusedScopesItLacks() {
        assertThat(domainCreator.canChange(3L)).isTrue();
        assertThat(domainCreator.canChange(99L)).isFalse();
        assertThat(domainCreator.canRead(99L)).isFalse();
        assertThatThrownBy(() -> domainCreator.requireOnDomain(ApiScope.ADMIN))
                .isInstanceOfSatisfying(
                        ProblemException.class, e -> assertThat(e.problem()).isEqualTo(Problem.FORBIDDEN));
    }
}
