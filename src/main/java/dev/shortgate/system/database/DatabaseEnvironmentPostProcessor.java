package dev.shortgate.system.database;

import java.util.HashMap;
import java.util.Map;

import dev.shortgate.system.redis.RedisConfigured;
import io.r2dbc.h2.H2ConnectionFactoryProvider;
import io.r2dbc.h2.H2ConnectionOption;
import io.r2dbc.spi.ConnectionFactoryOptions;
import io.r2dbc.spi.Option;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * One database setting for everything: Flyway migrates the database that {@code spring.r2dbc.url} names.
 *
 * <p>Flyway speaks JDBC, so this derives {@code spring.flyway.url}, {@code user} and {@code password} from the
 * R2DBC settings, unless they are set explicitly. It also turns off the Redis health check when no Redis is
 * configured, since the Redis tier is then off and its absence is not a fault, and with a Redis Cluster turns on
 * Lettuce's topology refresh (adaptive and every 5s), so a failover is followed without a restart.
 */
class DatabaseEnvironmentPostProcessor implements EnvironmentPostProcessor {

    static final String SOURCE_NAME = "shortgateDerived";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> derived = new HashMap<>();
        String r2dbcUrl = environment.getProperty("spring.r2dbc.url");
        if (StringUtils.hasText(r2dbcUrl) && !StringUtils.hasText(environment.getProperty("spring.flyway.url"))) {
            derived.put("spring.flyway.url", jdbcUrl(r2dbcUrl));
            ConnectionFactoryOptions options = ConnectionFactoryOptions.parse(r2dbcUrl);
            String user = firstText(
                    environment.getProperty("spring.r2dbc.username"), value(options, ConnectionFactoryOptions.USER));
            if (user == null && DatabaseDialect.ofUrl(options) == DatabaseDialect.H2) {
                user = "sa"; // H2 ties a database file to the user that made it; both drivers must agree
                derived.put("spring.r2dbc.username", user);
            }
            String password = firstText(
                    environment.getProperty("spring.r2dbc.password"),
                    value(options, ConnectionFactoryOptions.PASSWORD));
            if (user != null) {
                derived.put("spring.flyway.user", user);
            }
            if (password != null) {
                derived.put("spring.flyway.password", password);
            }
        }
        if (!RedisConfigured.OnRedis.isConfigured(environment)) {
            derived.put("management.health.redis.enabled", "false");
        }
        if (RedisConfigured.OnRedis.isCluster(environment)) {
            // Follow a failover by itself: re-read the topology when a node keeps refusing or answers MOVED, and
            // every few seconds, so a promoted replica is found without a restart.
            derived.put("spring.data.redis.lettuce.cluster.refresh.adaptive", "true");
            derived.put("spring.data.redis.lettuce.cluster.refresh.period", "5s");
        }
        if (!derived.isEmpty()) {
            environment.getPropertySources().addLast(new MapPropertySource(SOURCE_NAME, derived));
        }
    }

    /**
     * The JDBC URL of the database an R2DBC URL names: {@code r2dbc:mysql://h:p/db} becomes
     * {@code jdbc:mariadb://h:p/db} (the MariaDB driver speaks to MySQL too), and
     * {@code r2dbc:h2:file:///./data/x?options=MODE=MySQL} becomes {@code jdbc:h2:file:./data/x;MODE=MySQL}.
     * A pooled URL ({@code r2dbc:pool:mysql://...}) names the database of the driver it wraps. H2 gets the same
     * settings r2dbc-h2 applies: the decoded {@code options} and the H2 settings given as query parameters.
     */
    static String jdbcUrl(String r2dbcUrl) {
        ConnectionFactoryOptions options = ConnectionFactoryOptions.parse(r2dbcUrl);
        String driver = DatabaseDialect.driver(options);
        if (driver == null) {
            throw new IllegalArgumentException("Cannot derive a JDBC URL from " + redacted(r2dbcUrl) + ": no driver");
        }
        DatabaseDialect dialect = DatabaseDialect.ofUrl(options);
        if (dialect == null) {
            throw new IllegalArgumentException("Unsupported R2DBC driver '" + driver + "' in " + redacted(r2dbcUrl)
                    + "; use r2dbc:mysql or r2dbc:h2");
        }
        String database = value(options, ConnectionFactoryOptions.DATABASE);
        return switch (dialect) {
            case MYSQL -> {
                String host = value(options, ConnectionFactoryOptions.HOST);
                Object port = options.getValue(ConnectionFactoryOptions.PORT);
                yield "jdbc:mariadb://" + host + (port != null ? ":" + port : "") + "/"
                        + (database != null ? database : "") + mariadbTls(options);
            }
            case H2 -> {
                StringBuilder url = new StringBuilder("jdbc:h2:")
                        .append(protocol(options))
                        .append(':')
                        .append(database);
                String settings = value(options, H2ConnectionFactoryProvider.OPTIONS);
                if (StringUtils.hasText(settings)) {
                    url.append(';').append(settings);
                }
                for (H2ConnectionOption setting : H2ConnectionOption.values()) {
                    String value = value(options, Option.valueOf(setting.getKey()));
                    if (value != null) {
                        url.append(';').append(setting.getKey()).append('=').append(value);
                    }
                }
                yield url.toString();
            }
        };
    }

    /**
     * The TLS settings of an r2dbc-mysql URL as MariaDB JDBC parameters, so Flyway connects as securely as the
     * application: {@code sslMode} REQUIRED, VERIFY_CA and VERIFY_IDENTITY become {@code trust},
     * {@code verify-ca} and {@code verify-full}, and {@code sslCa} becomes {@code serverSslCert}. Any other TLS
     * setup (client certificates, a trust store) needs {@code spring.flyway.url} set explicitly.
     */
    static String mariadbTls(ConnectionFactoryOptions options) {
        String mode = value(options, Option.valueOf("sslMode"));
        String jdbcMode = mode == null
                ? null
                : switch (mode.toUpperCase(java.util.Locale.ROOT)) {
                    case "DISABLED" -> "disable";
                    case "REQUIRED" -> "trust";
                    case "VERIFY_CA" -> "verify-ca";
                    case "VERIFY_IDENTITY" -> "verify-full";
                    case "PREFERRED" ->
                        null; // try TLS, fall back to plain: MariaDB JDBC has no such mode; its default is plain
                    default ->
                        throw new IllegalArgumentException("sslMode=" + mode + " has no MariaDB JDBC equivalent for "
                                + "Flyway; set spring.flyway.url (SPRING_FLYWAY_URL) explicitly");
                };
        String ca = value(options, Option.valueOf("sslCa"));
        StringBuilder query = new StringBuilder();
        if (jdbcMode != null) {
            query.append("sslMode=").append(jdbcMode);
        }
        if (ca != null && jdbcMode != null && !"disable".equals(jdbcMode)) {
            // MariaDB JDBC splits its parameters on '&' and '=' and never decodes them, so the path goes in as it is
            if (ca.contains("&") || ca.contains("=")) {
                throw new IllegalArgumentException("sslCa path '" + ca + "' cannot be passed to Flyway's JDBC URL; "
                        + "set spring.flyway.url (SPRING_FLYWAY_URL) explicitly");
            }
            query.append("&serverSslCert=").append(ca);
        }
        return query.isEmpty() ? "" : "?" + query;
    }

    /** The driver's protocol, such as {@code file} or {@code mem} for H2, past any {@code pool:} wrapping. */
    private static String protocol(ConnectionFactoryOptions options) {
        String protocol = value(options, ConnectionFactoryOptions.PROTOCOL);
        if (!"pool".equals(value(options, ConnectionFactoryOptions.DRIVER)) || protocol == null) {
            return protocol;
        }
        int colon = protocol.indexOf(':');
        return colon < 0 ? null : protocol.substring(colon + 1);
    }

    /** The URL without its password, for error messages that end up in logs. */
    private static String redacted(String url) {
        return url.replaceFirst("//[^/?#@]*@", "//***@");
    }

    private static String value(ConnectionFactoryOptions options, Option<?> option) {
        Object value = options.getValue(option);
        return value == null ? null : value.toString();
    }

    private static String firstText(String a, String b) {
        return StringUtils.hasText(a) ? a : (StringUtils.hasText(b) ? b : null);
    }
}
