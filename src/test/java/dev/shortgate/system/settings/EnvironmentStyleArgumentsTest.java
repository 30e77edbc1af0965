package dev.shortgate.system.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class EnvironmentStyleArgumentsTest {

    private static StandardEnvironment environment(String... args) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment
                .getPropertySources()
                .addLast(new SystemEnvironmentPropertySource(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.of("SPRING_R2DBC_URL", "r2dbc:mysql://from-environment/sg")));
        environment
                .getPropertySources()
                .addLast(new MapPropertySource(
                        "applicationYaml", Map.of("shortgate.base-url", "http://localhost:8080")));
        environment.getPropertySources().addFirst(new SimpleCommandLinePropertySource(args));
        ConfigurationPropertySources.attach(environment);
        new EnvironmentStyleArguments().postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    @Test
    void environmentVariableNamesOnTheCommandLineMeanWhatTheVariablesMean() {
        StandardEnvironment environment = environment(
                "--SPRING_R2DBC_URL=r2dbc:mysql://db:3306/sg",
                "--SHORTGATE_BASE_URL=https://sho.rt",
                "--SHORTGATE_REDIRECT_NEARCACHE_TTL=30s");

        assertThat(environment.getProperty("spring.r2dbc.url")).isEqualTo("r2dbc:mysql://db:3306/sg");
        assertThat(Binder.get(environment)
                        .bind("shortgate.base-url", String.class)
                        .get())
                .isEqualTo("https://sho.rt");
        assertThat(environment.getProperty("shortgate.redirect.near-cache.ttl")).isEqualTo("30s");
    }

    @Test
    void withoutThemTheEnvironmentAndApplicationYamlStillApply() {
        StandardEnvironment environment = environment("--server.port=9000");

        assertThat(environment.getProperty("spring.r2dbc.url")).isEqualTo("r2dbc:mysql://from-environment/sg");
        assertThat(environment.getProperty("shortgate.base-url")).isEqualTo("http://localhost:8080");
        assertThat(environment.getPropertySources().contains(EnvironmentStyleArguments.SOURCE_NAME))
                .isFalse();
    }

    @Test
    void dottedArgumentsAreLeftToSpringBootAndStillWin() {
        StandardEnvironment environment =
                environment("--spring.r2dbc.url=r2dbc:h2:mem:///x", "--shortgate.base-url=https://dotted.example");

        assertThat(environment.getProperty("spring.r2dbc.url")).isEqualTo("r2dbc:h2:mem:///x");
        assertThat(environment.getProperty("shortgate.base-url")).isEqualTo("https://dotted.example");
    }
}
