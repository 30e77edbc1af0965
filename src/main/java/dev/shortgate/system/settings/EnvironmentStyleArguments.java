package dev.shortgate.system.settings;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.CommandLinePropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Lets the documented environment variable names work on the command line as well:
 * {@code java -jar shortgate.jar --SPRING_R2DBC_URL=... --SHORTGATE_BASE_URL=...} means what the same variables
 * mean in the environment. Spring Boot already reads {@code --spring.r2dbc.url=...}; an argument in the
 * environment-variable style would otherwise be ignored, since only environment sources get relaxed
 * {@code UPPER_SNAKE} names.
 *
 * <p>The upper-case arguments are copied into a {@link SystemEnvironmentPropertySource} placed right after the
 * command line, so they rank above application.yaml and the real environment, as command-line arguments do.
 */
class EnvironmentStyleArguments implements EnvironmentPostProcessor, Ordered {

    static final String SOURCE_NAME = "commandLineArgs-systemEnvironment";
    private static final Pattern ENVIRONMENT_STYLE = Pattern.compile("[A-Z][A-Z0-9]*(_[A-Z0-9]+)+");

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        PropertySource<?> arguments =
                environment.getPropertySources().get(CommandLinePropertySource.COMMAND_LINE_PROPERTY_SOURCE_NAME);
        if (!(arguments instanceof EnumerablePropertySource<?> enumerable)) {
            return;
        }
        Map<String, Object> named = new LinkedHashMap<>();
        for (String name : enumerable.getPropertyNames()) {
            if (ENVIRONMENT_STYLE.matcher(name).matches()) {
                named.put(name, enumerable.getProperty(name));
            }
        }
        if (!named.isEmpty()) {
            environment
                    .getPropertySources()
                    .addAfter(arguments.getName(), new SystemEnvironmentPropertySource(SOURCE_NAME, named));
        }
    }

    /**
     * Before config data is processed, so {@code --SPRING_PROFILES_ACTIVE} and {@code --SPRING_CONFIG_IMPORT}
     * work too, and before the database settings are derived from {@code spring.r2dbc.url}.
     */
    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER - 1;
    }
}
