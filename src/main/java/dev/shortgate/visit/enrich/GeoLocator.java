package dev.shortgate.visit.enrich;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import com.maxmind.db.CHMCache;
import com.maxmind.geoip2.DatabaseReader;
import com.maxmind.geoip2.exception.GeoIp2Exception;
import com.maxmind.geoip2.model.CityResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.modulith.NamedInterface;

/**
 * Country and city of an IP, from a MaxMind GeoIP2/GeoLite2 City database ({@code shortgate.visit.geoip-database}).
 * Without a database every answer is {@link Location#UNKNOWN}, and start-up says so once.
 */
@NamedInterface("geo")
public final class GeoLocator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GeoLocator.class);

    /** @param country ISO 3166-1 alpha-2, or null; @param city English name, or null */
    public record Location(String country, String city) {
        public static final Location UNKNOWN = new Location(null, null);
    }

    private final DatabaseReader reader;

    private GeoLocator(DatabaseReader reader) {
        this.reader = reader;
    }

    /** Opens the database at {@code path}; a blank path gives a locator that knows nothing. */
    public static GeoLocator open(String path) {
        if (path == null || path.isBlank()) {
            log.info(
                    "No GeoIP database configured (shortgate.visit.geoip-database); visit country and city stay empty");
            return new GeoLocator(null);
        }
        Path file = Path.of(path);
        if (!Files.isReadable(file)) {
            throw new IllegalStateException("shortgate.visit.geoip-database points at " + file.toAbsolutePath()
                    + ", which is not a readable file");
        }
        try {
            DatabaseReader reader = new DatabaseReader.Builder(file.toFile())
                    .withCache(new CHMCache())
                    .build();
            String type = reader.metadata().databaseType();
            if (!type.contains("City")) {
                reader.close();
                throw new IllegalStateException(
                        "shortgate.visit.geoip-database must be a City database; " + file + " is " + type);
            }
            log.info("GeoIP database {} ({}) loaded", file, type);
            return new GeoLocator(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not open GeoIP database " + file, e);
        }
    }

    /** Where this address is, from the in-memory database; {@link Location#UNKNOWN} without one. No network I/O. */
    public Location locate(InetAddress address) {
        if (reader == null || address == null) {
            return Location.UNKNOWN;
        }
        try {
            return reader.tryCity(address).map(GeoLocator::toLocation).orElse(Location.UNKNOWN);
        } catch (IOException | GeoIp2Exception e) {
            log.debug("GeoIP look-up failed: {}", e.toString());
            return Location.UNKNOWN;
        }
    }

    private static Location toLocation(CityResponse response) {
        String country = response.country() == null ? null : response.country().isoCode();
        String city = response.city() == null ? null : response.city().name();
        return new Location(country, city);
    }

    @Override
    public void close() throws IOException {
        if (reader != null) {
            reader.close();
        }
    }
}
