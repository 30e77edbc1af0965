package dev.shortgate.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shortgate.link.Link;
import org.junit.jupiter.api.Test;

class DomainCodesTest {

    @Test
    void theDefaultDomainsKeyIsTheCodeItself() {
        assertThat(DomainCodes.key(Domains.DEFAULT_ID, "abc")).isEqualTo("abc");
        assertThat(DomainCodes.domainId("abc")).isEqualTo(Domains.DEFAULT_ID);
        assertThat(DomainCodes.code("abc")).isEqualTo("abc");
        assertThat(DomainCodes.prefix(Domains.DEFAULT_ID)).isEmpty();
    }

    @Test
    void anotherDomainsKeyCarriesItsIdAndGivesItBack() {
        String key = DomainCodes.key(42, "a-b_C");
        assertThat(key).isEqualTo("42~a-b_C");
        assertThat(DomainCodes.domainId(key)).isEqualTo(42);
        assertThat(DomainCodes.code(key)).isEqualTo("a-b_C");
        assertThat(Link.KEY.matcher(key).matches()).isTrue();
    }

    @Test
    void aKeyOfAnotherDomainIsNoCodeAVisitorCanType() {
        assertThat(Link.CODE.matcher(DomainCodes.key(3, "x")).matches()).isFalse();
        assertThat(Link.KEY.matcher("0~x").matches()).isFalse();
        assertThat(Link.KEY.matcher("~x").matches()).isFalse();
        assertThat(Link.KEY.matcher("3~").matches()).isFalse();
        assertThat(Link.KEY.matcher("3~" + "x".repeat(63)).matches()).isFalse();
        assertThat(Link.KEY.matcher("3~" + "x".repeat(62)).matches()).isTrue();
    }
}
