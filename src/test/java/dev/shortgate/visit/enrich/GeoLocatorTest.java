package dev.shortgate.visit.enrich;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Known answers of MaxMind's test database, kept under {@code src/test/resources/geoip} (see its README). */
public class GeoLocatorTest {

    static final Path GEOIP = Path.of("src", "test", "resources", "geoip", "GeoLite2-City-Test.mmdb");

    public static Path database() {
        assertThat(GEOIP).isReadable();
        return GEOIP;
    }

    @ParameterizedTest
    @CsvSource({
        "81.2.69.142, GB, London",
        "89.160.20.112, SE, Linköping",
        "216.160.83.56, US, Milton",
        "175.16.199.1, CN, Changchun",
        "2.125.160.216, GB, Boxford"
    })
    void knownTestNetworksResolveToTheirCountryAndCity(String ip, String country, String city) throws Exception {
        try (GeoLocator geo = GeoLocator.open(database().toString())) {
            assertThat(geo.locate(InetAddress.getByName(ip))).isEqualTo(new GeoLocator.Location(country, city));
        }
    }

    @Test
    void addressOutsideTheDatabaseIsUnknown() throws Exception {
        try (GeoLocator geo = GeoLocator.open(database().toString())) {
            assertThat(geo.locate(InetAddress.getByName("10.0.0.1"))).isEqualTo(GeoLocator.Location.UNKNOWN);
            assertThat(geo.locate(null)).isEqualTo(GeoLocator.Location.UNKNOWN);
        }
    }

    @Test
    void noConfiguredDatabaseLeavesEveryAnswerUnknown() throws Exception {
        try (GeoLocator geo = GeoLocator.open(null)) {
            assertThat(geo.locate(InetAddress.getByName("81.2.69.142"))).isEqualTo(GeoLocator.Location.UNKNOWN);
        }
    }

    @Test
    void unreadableDatabasePathFailsStartupWithThePath() {
        assertThatThrownBy(() -> GeoLocator.open("/nonexistent/city.mmdb"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/nonexistent/city.mmdb");
    }
}
