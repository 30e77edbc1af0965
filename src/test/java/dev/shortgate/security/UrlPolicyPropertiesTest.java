package dev.shortgate.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** How {@code shortgate.security.url.*} binds from properties and environment variables. */
class UrlPolicyPropertiesTest {

    @Test
    void withNothingConfiguredTheDefaultsApply() {
        UrlPolicyProperties bound = bind(Map.of());

        assertThat(bound).isEqualTo(UrlPolicyProperties.defaults());
        assertThat(bound.shortenerDomains()).isEqualTo(UrlPolicyProperties.DEFAULT_SHORTENERS);
        assertThat(bound.allowPrivateHosts()).isFalse();
    }

    @Test
    void listsBindFromCommaSeparatedValuesAndIndexes() {
        UrlPolicyProperties bound = bind(Map.of(
                "shortgate.security.url.own-domains", "go.example, links.example",
                "shortgate.security.url.deny-hosts[0]", "evil.example",
                "shortgate.security.url.deny-hosts[1]", "8.8.4.4",
                "shortgate.security.url.shortener-domains", "short.example",
                "shortgate.security.url.allow-private-hosts", "true"));

        assertThat(bound.ownDomains()).containsExactly("go.example", "links.example");
        assertThat(bound.denyHosts()).containsExactly("evil.example", "8.8.4.4");
        assertThat(bound.shortenerDomains()).containsExactly("short.example");
        assertThat(bound.allowPrivateHosts()).isTrue();
    }

    @Test
    void anEmptyShortenerListAllowsEveryShortener() {
        assertThat(bind(Map.of("shortgate.security.url.shortener-domains", "")).shortenerDomains())
                .isEmpty();
    }

    private static UrlPolicyProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("shortgate.security.url", Bindable.of(UrlPolicyProperties.class));
    }
}
