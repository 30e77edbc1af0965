package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Known answers from {@code ../shared/geoip/README.md}; skips when that folder is not beside the project. */
class GeoLocatorTest {

    static final Path GEOIP = Path.of("..", "shared", "geoip", "GeoLite2-City-Test.mmdb");

    static Path database() {
        assumeTrue(Files.isReadable(GEOIP), "MaxMind test database not found at " + GEOIP.toAbsolutePath()
                + "; skipping GeoIP known-answer tests (CI has ../shared/geoip)");
        return GEOIP;
    }

    @ParameterizedTest
    @CsvSource({
        "81.2.69.142, GB, London",
        "89.160.20.112, SE, Linköping",
        "216.160.83.56, US, Milton",
        "175.16.199.1, CN, Changchun",
        "2.125.160.216, GB, Boxford"})
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
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("/nonexistent/city.mmdb");
    }
}
