package dev.shortgate.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DomainNamesTest {

    @Test
    void hostNamesAreLowerCasePunycodeWithoutTrailingDot() {
        assertThat(DomainNames.normalise("Go.Example.COM.")).isEqualTo("go.example.com");
        assertThat(DomainNames.normalise("bücher.example")).isEqualTo("xn--bcher-kva.example");
        assertThat(DomainNames.normalise("a.test")).isEqualTo("a.test");
    }

    @Test
    void whatIsNoDnsHostNameIsRefused() {
        assertThat(DomainNames.normalise("localhost")).isNull();
        assertThat(DomainNames.normalise("10.0.0.1")).isNull();
        assertThat(DomainNames.normalise("go.example.com:8080")).isNull();
        assertThat(DomainNames.normalise("-bad.example")).isNull();
        assertThat(DomainNames.normalise("a..example")).isNull();
        assertThat(DomainNames.normalise("under_score.example")).isNull();
        assertThat(DomainNames.normalise("https://go.example.com")).isNull();
        assertThat(DomainNames.normalise(" ")).isNull();
        assertThat(DomainNames.normalise("a".repeat(64) + ".example")).isNull();
    }
}
