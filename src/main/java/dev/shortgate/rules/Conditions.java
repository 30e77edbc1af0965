package dev.shortgate.rules;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Set;

import dev.shortgate.link.LinkRules;

/**
 * Turns a stored condition into a test of a request, checking its value on the way: {@link #compile} throws
 * {@link IllegalArgumentException} with a message for the API when the value is not one its type takes. The tests
 * follow Shlink 5.1's {@code RedirectCondition} (see each case).
 */
final class Conditions {

    /** A compiled condition. */
    @FunctionalInterface
    interface Test {
        boolean matches(Context context);
    }

    private static final Set<String> COUNTRIES = Set.of(Locale.getISOCountries());
    static final int MAX_VALUE_LENGTH = 256;

    private Conditions() {}

    static Test compile(LinkRules.Condition condition) {
        ConditionType type = ConditionType.of(condition.type());
        if (type == null) {
            throw new IllegalArgumentException("\"" + condition.type() + "\" is not a redirect condition type.");
        }
        String key = condition.matchKey();
        String value = condition.matchValue();
        if ((value != null && value.length() > MAX_VALUE_LENGTH) || (key != null && key.length() > MAX_VALUE_LENGTH)) {
            throw new IllegalArgumentException(
                    "matchKey and matchValue are at most " + MAX_VALUE_LENGTH + " characters.");
        }
        return switch (type) {
            case DEVICE -> {
                Agent.Device device = Agent.Device.of(value);
                if (device == null) {
                    throw invalid(value, type);
                }
                yield context -> context.agent().is(device);
            }
            case BROWSER -> {
                Agent.Browser browser = Agent.Browser.of(value);
                if (browser == null) {
                    throw invalid(value, type);
                }
                yield context -> context.agent().browser() == browser;
            }
            case LANGUAGE -> {
                String locale = value == null ? "" : Languages.normalize(value);
                if (!locale.matches("[a-z]{1,8}(-[a-z0-9]{1,8})?")) {
                    throw invalid(value, type);
                }
                String[] wanted = Languages.split(locale);
                yield context -> {
                    for (String[] accepted : context.languages()) {
                        if (accepted[0].equals(wanted[0]) && (wanted[1] == null || wanted[1].equals(accepted[1]))) {
                            return true;
                        }
                    }
                    return false;
                };
            }
            case QUERY_PARAM -> {
                if (key == null || key.isEmpty() || value == null || value.isEmpty()) {
                    throw new IllegalArgumentException(
                            "A query-param condition needs a matchKey and a non-empty matchValue.");
                }
                yield context -> value.equals(context.query().get(key));
            }
            case ANY_VALUE_QUERY_PARAM -> {
                requireKey(key, type);
                yield context -> context.query().containsKey(key);
            }
            case VALUELESS_QUERY_PARAM -> {
                requireKey(key, type);
                yield context -> {
                    String given = context.query().get(key);
                    return given != null && given.isEmpty();
                };
            }
            case IP_ADDRESS -> {
                IpPattern pattern = IpPattern.parse(value);
                if (pattern == null) {
                    throw invalid(value, type);
                }
                yield context -> pattern.matches(context.ip());
            }
            case GEOLOCATION_COUNTRY_CODE -> {
                if (value == null || !COUNTRIES.contains(value.toUpperCase(Locale.ROOT))) {
                    throw invalid(value, type);
                }
                yield context -> value.equalsIgnoreCase(context.location().country());
            }
            case GEOLOCATION_CITY_NAME -> {
                if (value == null || value.isBlank()) {
                    throw invalid(value, type);
                }
                yield context -> value.equalsIgnoreCase(context.location().city());
            }
            case BEFORE_DATE -> {
                Instant date = date(value, type);
                yield context -> context.now.isBefore(date);
            }
            case AFTER_DATE -> {
                Instant date = date(value, type);
                yield context -> context.now.isAfter(date);
            }
        };
    }

    private static void requireKey(String key, ConditionType type) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("A " + type.value + " condition needs a matchKey.");
        }
    }

    /**
     * A date condition's value: ISO 8601 with an offset ({@code 2026-01-01T00:00:00+01:00}, as Shlink writes them),
     * or without one (a date-time or a date) read as UTC.
     */
    static Instant date(String value, ConditionType type) {
        if (value == null) {
            throw invalid(null, type);
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException notLocal) {
                try {
                    return LocalDate.parse(value).atStartOfDay().toInstant(ZoneOffset.UTC);
                } catch (DateTimeParseException notDate) {
                    throw invalid(value, type);
                }
            }
        }
    }

    private static IllegalArgumentException invalid(String value, ConditionType type) {
        // Shlink's wording (RedirectConditionData)
        return new IllegalArgumentException(
                "\"" + value + "\" is not a valid value for the \"" + type.name() + "\" redirect condition");
    }
}
