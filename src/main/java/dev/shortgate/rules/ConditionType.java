package dev.shortgate.rules;

/** Shlink 5.1's condition types ({@code RedirectConditionType}), by their wire names. */
enum ConditionType {
    DEVICE("device"),
    LANGUAGE("language"),
    QUERY_PARAM("query-param"),
    ANY_VALUE_QUERY_PARAM("any-value-query-param"),
    VALUELESS_QUERY_PARAM("valueless-query-param"),
    IP_ADDRESS("ip-address"),
    GEOLOCATION_COUNTRY_CODE("geolocation-country-code"),
    GEOLOCATION_CITY_NAME("geolocation-city-name"),
    BEFORE_DATE("before-date"),
    AFTER_DATE("after-date"),
    BROWSER("browser");

    final String value;

    ConditionType(String value) {
        this.value = value;
    }

    static ConditionType of(String value) {
        for (ConditionType type : values()) {
            if (type.value.equals(value)) {
                return type;
            }
        }
        return null;
    }
}
