package dev.shortgate.system.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.mock.env.MockEnvironment;

class DatabaseEnvironmentPostProcessorTest {

    final DatabaseEnvironmentPostProcessor processor = new DatabaseEnvironmentPostProcessor();

    // --- jdbcUrl ----------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ' ',
            value = {
                "r2dbc:mysql://u:p@db:3306/shortgate jdbc:mariadb://db:3306/shortgate",
                "r2dbc:mysql://db/shortgate jdbc:mariadb://db/shortgate",
                "r2dbc:mariadb://db:3307/links jdbc:mariadb://db:3307/links",
                "r2dbc:mysql://127.0.0.1:3306/shortgate_test jdbc:mariadb://127.0.0.1:3306/shortgate_test",
                "r2dbc:mysql://[::1]:3306/shortgate jdbc:mariadb://[::1]:3306/shortgate",
                "r2dbc:mysql://u%40corp:p%3Ass@db:3306/shortgate jdbc:mariadb://db:3306/shortgate",
                "r2dbc:mysql://db:3306 jdbc:mariadb://db:3306/"
            })
    void mysqlAndMariadbUrlsBecomeMariadbJdbcUrlsWithoutCredentials(String r2dbc, String jdbc) {
        assertThat(DatabaseEnvironmentPostProcessor.jdbcUrl(r2dbc)).isEqualTo(jdbc);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ' ',
            value = {
                "r2dbc:h2:file:///./data/shortgate?options=MODE=MySQL;DATABASE_TO_LOWER=TRUE "
                        + "jdbc:h2:file:./data/shortgate;MODE=MySQL;DATABASE_TO_LOWER=TRUE",
                "r2dbc:h2:file:///./data/shortgate jdbc:h2:file:./data/shortgate",
                "r2dbc:h2:file:////var/lib/shortgate/db?options=MODE=MySQL jdbc:h2:file:/var/lib/shortgate/db;MODE=MySQL",
                "r2dbc:h2:mem:///testdb?options=DB_CLOSE_DELAY=-1;MODE=MySQL jdbc:h2:mem:testdb;DB_CLOSE_DELAY=-1;MODE=MySQL",
                "r2dbc:h2:mem:///testdb jdbc:h2:mem:testdb"
            })
    void h2UrlsBecomeH2JdbcUrlsWithTheirOptionsAsSettings(String r2dbc, String jdbc) {
        assertThat(DatabaseEnvironmentPostProcessor.jdbcUrl(r2dbc)).isEqualTo(jdbc);
    }

    @Test
    void percentEncodedH2OptionsAreDecodedAsR2dbcDecodesThem() {
        // R2DBC opens the database with DB_CLOSE_DELAY=-1; Flyway must get the same setting, not "%3D".
        assertThat(DatabaseEnvironmentPostProcessor.jdbcUrl(
                        "r2dbc:h2:mem:///testdb?options=DB_CLOSE_DELAY%3D-1%3BMODE%3DMySQL"))
                .isEqualTo("jdbc:h2:mem:testdb;DB_CLOSE_DELAY=-1;MODE=MySQL");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ' ',
            value = {
                "r2dbc:h2:mem:///testdb?DB_CLOSE_DELAY=-1&MODE=MySQL jdbc:h2:mem:testdb;DB_CLOSE_DELAY=-1;MODE=MySQL",
                "r2dbc:h2:mem:///testdb?options=MODE=MySQL&DB_CLOSE_DELAY=-1 jdbc:h2:mem:testdb;MODE=MySQL;DB_CLOSE_DELAY=-1",
                "r2dbc:h2:mem:///testdb?connectTimeout=PT5S&NOT_AN_H2_SETTING=1 jdbc:h2:mem:testdb",
                "r2dbc:pool:h2:mem:///testdb?maxSize=20&initialSize=2&DB_CLOSE_DELAY=-1 jdbc:h2:mem:testdb;DB_CLOSE_DELAY=-1"
            })
    void h2GetsTheSettingsR2dbcH2AppliesAndNoOthers(String r2dbc, String jdbc) {
        // r2dbc-h2 applies 'options' and the query parameters named like H2 settings; it ignores the rest (pool
        // and R2DBC options), and H2's JDBC driver would refuse them as unknown settings.
        assertThat(DatabaseEnvironmentPostProcessor.jdbcUrl(r2dbc)).isEqualTo(jdbc);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ' ',
            value = {
                "r2dbc:pool:mysql://u:p@db:3306/shortgate jdbc:mariadb://db:3306/shortgate",
                "r2dbc:pool:mariadb://db/shortgate jdbc:mariadb://db/shortgate",
                "r2dbc:pool:h2:file:///./data/shortgate?options=MODE=MySQL jdbc:h2:file:./data/shortgate;MODE=MySQL",
                "r2dbc:pool:h2:mem:///testdb jdbc:h2:mem:testdb"
            })
    void pooledUrlsNameTheDatabaseOfTheDriverTheyWrap(String r2dbc, String jdbc) {
        // Spring Boot accepts r2dbc:pool:<driver>:... for spring.r2dbc.url; the pool is not a database.
        assertThat(DatabaseEnvironmentPostProcessor.jdbcUrl(r2dbc)).isEqualTo(jdbc);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "r2dbc:postgresql://u:secret@db:5432/shortgate",
                "r2dbc:mssql://u:secret@db/shortgate",
                "r2dbc:pool:postgresql://u:secret@db/shortgate"
            })
    void unsupportedDriversAreRefusedWithoutRevealingThePassword(String r2dbc) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> DatabaseEnvironmentPostProcessor.jdbcUrl(r2dbc))
                .withMessageContaining("Unsupported R2DBC driver")
                .withMessageContaining("use r2dbc:mysql or r2dbc:h2")
                .withMessageContaining("@db")
                .withMessageNotContaining("secret");
    }

    @Test
    void unsupportedDriverMessageNamesTheDriver() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> DatabaseEnvironmentPostProcessor.jdbcUrl("r2dbc:postgresql://db/shortgate"))
                .withMessage("Unsupported R2DBC driver 'postgresql' in r2dbc:postgresql://db/shortgate; "
                        + "use r2dbc:mysql or r2dbc:h2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql://db/shortgate", "jdbc:mariadb://db/shortgate", "r2dbc:", "r2dbc://db/x"})
    void urlsThatAreNotR2dbcUrlsAreRefused(String url) {
        assertThatIllegalArgumentException().isThrownBy(() -> DatabaseEnvironmentPostProcessor.jdbcUrl(url));
    }

    // --- postProcessEnvironment -------------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "r2dbc:mysql://db:3306/sg?sslMode=REQUIRED | jdbc:mariadb://db:3306/sg?sslMode=trust",
                "r2dbc:mysql://db/sg?sslMode=verify_ca&sslCa=/etc/ssl/ca.pem | jdbc:mariadb://db/sg?sslMode=verify-ca&serverSslCert=/etc/ssl/ca.pem",
                "r2dbc:mysql://db/sg?sslMode=VERIFY_IDENTITY | jdbc:mariadb://db/sg?sslMode=verify-full",
                "r2dbc:mysql://db/sg?sslMode=DISABLED&sslCa=/ca.pem | jdbc:mariadb://db/sg?sslMode=disable",
                "r2dbc:mysql://db/sg?sslMode=PREFERRED | jdbc:mariadb://db/sg",
                "r2dbc:pool:mysql://db/sg?sslMode=REQUIRED&maxSize=5 | jdbc:mariadb://db/sg?sslMode=trust"
            })
    void flywayConnectsWithTheTlsModeOfTheR2dbcUrl(String r2dbc, String jdbc) {
        assertThat(DatabaseEnvironmentPostProcessor.jdbcUrl(r2dbc)).isEqualTo(jdbc);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "r2dbc:mysql://db/sg?sslMode=TUNNEL",
                "r2dbc:mysql://db/sg?sslMode=REQUIRED&sslCa=/certs/a%26b.pem"
            })
    void tlsSettingsFlywayCannotMatchAreRefusedWithTheWayOut(String r2dbc) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> DatabaseEnvironmentPostProcessor.jdbcUrl(r2dbc))
                .withMessageContaining("SPRING_FLYWAY_URL");
    }

    @Test
    void flywaySettingsAreDerivedFromTheR2dbcSettings() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.r2dbc.url", "r2dbc:mysql://db:3306/shortgate")
                .withProperty("spring.r2dbc.username", "app")
                .withProperty("spring.r2dbc.password", "s3cret");

        process(environment);

        assertThat(environment.getProperty("spring.flyway.url")).isEqualTo("jdbc:mariadb://db:3306/shortgate");
        assertThat(environment.getProperty("spring.flyway.user")).isEqualTo("app");
        assertThat(environment.getProperty("spring.flyway.password")).isEqualTo("s3cret");
    }

    @Test
    void credentialsInTheR2dbcUrlAreUsedWhenNoPropertiesNameThem() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.r2dbc.url", "r2dbc:mysql://u%40corp:p%3Ass@db:3306/shortgate");

        process(environment);

        assertThat(environment.getProperty("spring.flyway.url")).isEqualTo("jdbc:mariadb://db:3306/shortgate");
        assertThat(environment.getProperty("spring.flyway.user")).isEqualTo("u@corp");
        assertThat(environment.getProperty("spring.flyway.password")).isEqualTo("p:ss");
    }

    @Test
    void r2dbcPropertiesWinOverCredentialsInTheUrl() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.r2dbc.url", "r2dbc:mysql://urluser:urlpass@db/shortgate")
                .withProperty("spring.r2dbc.username", "propuser")
                .withProperty("spring.r2dbc.password", "proppass");

        process(environment);

        assertThat(environment.getProperty("spring.flyway.user")).isEqualTo("propuser");
        assertThat(environment.getProperty("spring.flyway.password")).isEqualTo("proppass");
    }

    @Test
    void aRedisClusterFollowsFailoversUnlessTopologyRefreshIsSetExplicitly() {
        MockEnvironment cluster =
                new MockEnvironment().withProperty("spring.data.redis.cluster.nodes", "r1:6379,r2:6379");
        MockEnvironment tuned = new MockEnvironment()
                .withProperty("spring.data.redis.cluster.nodes", "r1:6379")
                .withProperty("spring.data.redis.lettuce.cluster.refresh.period", "30s");
        MockEnvironment standalone = new MockEnvironment().withProperty("spring.data.redis.url", "redis://r:6379");

        process(cluster);
        process(tuned);
        process(standalone);

        assertThat(cluster.getProperty("spring.data.redis.lettuce.cluster.refresh.adaptive"))
                .isEqualTo("true");
        assertThat(cluster.getProperty("spring.data.redis.lettuce.cluster.refresh.period"))
                .isEqualTo("5s");
        assertThat(tuned.getProperty("spring.data.redis.lettuce.cluster.refresh.period"))
                .isEqualTo("30s");
        assertThat(standalone.getProperty("spring.data.redis.lettuce.cluster.refresh.adaptive"))
                .isNull();
    }

    @Test
    void explicitFlywayUrlIsNotOverridden() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.r2dbc.url", "r2dbc:mysql://db:3306/shortgate")
                .withProperty("spring.r2dbc.username", "app")
                .withProperty("spring.flyway.url", "jdbc:mariadb://migrations:3306/shortgate");

        process(environment);

        assertThat(environment.getProperty("spring.flyway.url")).isEqualTo("jdbc:mariadb://migrations:3306/shortgate");
        assertThat(environment.getProperty("spring.flyway.user"))
                .as("left to whoever set the Flyway URL")
                .isNull();
    }

    @Test
    void explicitFlywayCredentialsWinOverDerivedOnes() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.r2dbc.url", "r2dbc:mysql://db:3306/shortgate")
                .withProperty("spring.r2dbc.username", "app")
                .withProperty("spring.r2dbc.password", "app-pass")
                .withProperty("spring.flyway.user", "migrator")
                .withProperty("spring.flyway.password", "migrator-pass");

        process(environment);

        assertThat(environment.getProperty("spring.flyway.url")).isEqualTo("jdbc:mariadb://db:3306/shortgate");
        assertThat(environment.getProperty("spring.flyway.user")).isEqualTo("migrator");
        assertThat(environment.getProperty("spring.flyway.password")).isEqualTo("migrator-pass");
    }

    @Test
    void h2WithoutUserUsesSaForBothDrivers() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.r2dbc.url", "r2dbc:h2:file:///./data/shortgate?options=MODE=MySQL");

        process(environment);

        assertThat(environment.getProperty("spring.flyway.url")).isEqualTo("jdbc:h2:file:./data/shortgate;MODE=MySQL");
        assertThat(environment.getProperty("spring.r2dbc.username")).isEqualTo("sa");
        assertThat(environment.getProperty("spring.flyway.user")).isEqualTo("sa");
        assertThat(environment.getProperty("spring.flyway.password")).isNull();
    }

    @Test
    void pooledH2WithoutUserAlsoUsesSa() {
        MockEnvironment environment =
                new MockEnvironment().withProperty("spring.r2dbc.url", "r2dbc:pool:h2:mem:///testdb");

        process(environment);

        assertThat(environment.getProperty("spring.flyway.url")).isEqualTo("jdbc:h2:mem:testdb");
        assertThat(environment.getProperty("spring.flyway.user")).isEqualTo("sa");
    }

    @Test
    void h2WithAUserKeepsThatUser() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.r2dbc.url", "r2dbc:h2:mem:///testdb")
                .withProperty("spring.r2dbc.username", "owner");

        process(environment);

        assertThat(environment.getProperty("spring.r2dbc.username")).isEqualTo("owner");
        assertThat(environment.getProperty("spring.flyway.user")).isEqualTo("owner");
    }

    @Test
    void nothingIsDerivedForFlywayWithoutAnR2dbcUrl() {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.data.redis.url", "redis://cache:6379");

        process(environment);

        assertThat(environment.getProperty("spring.flyway.url")).isNull();
        assertThat(environment.getPropertySources().contains(DatabaseEnvironmentPostProcessor.SOURCE_NAME))
                .isFalse();
    }

    @Test
    void unsupportedR2dbcDriverFailsStartupClearly() {
        MockEnvironment environment =
                new MockEnvironment().withProperty("spring.r2dbc.url", "r2dbc:postgresql://db/shortgate");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> process(environment))
                .withMessageContaining("Unsupported R2DBC driver 'postgresql'");
    }

    @Test
    void redisHealthIsOffWhenNoRedisIsConfigured() {
        MockEnvironment environment = new MockEnvironment();

        process(environment);

        assertThat(environment.getProperty("management.health.redis.enabled")).isEqualTo("false");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "spring.data.redis.url=redis://cache:6379",
                "spring.data.redis.host=cache",
                "spring.data.redis.cluster.nodes=a:6379,b:6379",
                "spring.data.redis.cluster.nodes[0]=a:6379"
            })
    void redisHealthIsLeftAloneWhenRedisIsConfigured(String property) {
        String[] nameAndValue = property.split("=", 2);
        MockEnvironment environment = new MockEnvironment().withProperty(nameAndValue[0], nameAndValue[1]);

        process(environment);

        assertThat(environment.getProperty("management.health.redis.enabled")).isNull();
    }

    @Test
    void explicitRedisHealthSettingWinsOverTheDerivedOne() {
        MockEnvironment environment = new MockEnvironment().withProperty("management.health.redis.enabled", "true");

        process(environment);

        assertThat(environment.getProperty("management.health.redis.enabled")).isEqualTo("true");
    }

    @Test
    void derivedValuesComeLastSoEveryOtherSourceWins() {
        MockEnvironment environment =
                new MockEnvironment().withProperty("spring.r2dbc.url", "r2dbc:mysql://db/shortgate");
        environment.getPropertySources().addLast(new MapPropertySource("late", Map.of("x", "y")));

        process(environment);

        assertThat(environment.getPropertySources().stream()
                        .map(PropertySource::getName)
                        .toList())
                .last()
                .isEqualTo(DatabaseEnvironmentPostProcessor.SOURCE_NAME);
    }

    @Test
    void postProcessorIsRegisteredInSpringFactories() throws IOException {
        List<String> registrations = new ArrayList<>();
        for (URL url : Collections.list(getClass().getClassLoader().getResources("META-INF/spring.factories"))) {
            try (InputStream in = url.openStream()) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                if (text.contains(DatabaseEnvironmentPostProcessor.class.getName())) {
                    registrations.add(text);
                }
            }
        }

        assertThat(registrations)
                .singleElement()
                .asString()
                .contains("org.springframework.boot.EnvironmentPostProcessor=\\");
    }

    private void process(MockEnvironment environment) {
        processor.postProcessEnvironment(environment, new SpringApplication());
    }
}
