package dev.shortgate.rules;

import java.util.Locale;

/**
 * What the rules need of a user agent: Shlink's device types and browser, found by a purpose-built matcher (a few
 * substring tests, no regular expressions, no Yauaa), so it can run on the event loop. {@link Agents} keeps the
 * answers for recent agents.
 *
 * <p>It follows the platform and browser detection of the PHP library Shlink uses ({@code donatj/phpuseragent}):
 * iPhone, iPad and iPod are {@code ios} and {@code mobile}; Android is {@code android} and {@code mobile}; Windows,
 * macOS (iPadOS 13 and later says Macintosh), Linux and ChromeOS are each themselves and {@code desktop}; anything
 * else (Windows Phone, bots, an empty agent) is no device. Browsers are tried in the order that keeps the agents
 * that claim several names apart: Edge and Opera before Chrome, Chrome before Safari, and browsers Shlink does not
 * name (Samsung Internet, UC Browser, Yandex) are none.
 *
 * @param devices bits of {@link Device#bit()}
 * @param browser the browser, or {@code null}
 */
record Agent(int devices, Browser browser) {

    static final Agent NONE = new Agent(0, null);

    /** Shlink's device types. */
    enum Device {
        ANDROID,
        IOS,
        MOBILE,
        WINDOWS,
        MACOS,
        LINUX,
        CHROMEOS,
        DESKTOP;

        final String value = name().toLowerCase(Locale.ROOT);

        int bit() {
            return 1 << ordinal();
        }

        static Device of(String value) {
            for (Device device : values()) {
                if (device.value.equals(value)) {
                    return device;
                }
            }
            return null;
        }
    }

    /** Shlink's browsers. */
    enum Browser {
        CHROME,
        FIREFOX,
        EDGE,
        SAFARI,
        OPERA,
        ANDROID_BROWSER;

        final String value = name().toLowerCase(Locale.ROOT);

        static Browser of(String value) {
            for (Browser browser : values()) {
                if (browser.value.equals(value)) {
                    return browser;
                }
            }
            return null;
        }
    }

    boolean is(Device device) {
        return (devices & device.bit()) != 0;
    }

    /** Classifies an agent. */
    static Agent classify(String userAgent) {
        if (userAgent == null || userAgent.isBlank()) {
            return NONE;
        }
        return new Agent(devices(userAgent), browser(userAgent));
    }

    private static int devices(String ua) {
        if (ua.contains("Windows Phone") || ua.contains("Windows Mobile")) {
            return 0;
        }
        if (ua.contains("iPhone") || ua.contains("iPad") || ua.contains("iPod")) {
            return Device.IOS.bit() | Device.MOBILE.bit();
        }
        if (ua.contains("Android")) {
            return Device.ANDROID.bit() | Device.MOBILE.bit();
        }
        if (ua.contains("CrOS")) {
            return Device.CHROMEOS.bit() | Device.DESKTOP.bit();
        }
        if (ua.contains("Windows")) {
            return Device.WINDOWS.bit() | Device.DESKTOP.bit();
        }
        if (ua.contains("Macintosh") || ua.contains("Mac OS X")) {
            return Device.MACOS.bit() | Device.DESKTOP.bit();
        }
        if (ua.contains("Linux") || ua.contains("X11")) {
            return Device.LINUX.bit() | Device.DESKTOP.bit();
        }
        return 0;
    }

    private static Browser browser(String ua) {
        if (ua.contains("Edg/") || ua.contains("Edge/") || ua.contains("EdgA/") || ua.contains("EdgiOS/")) {
            return Browser.EDGE;
        }
        if (ua.contains("OPR/") || ua.contains("Opera") || ua.contains("OPiOS/")) {
            return Browser.OPERA;
        }
        if (ua.contains("SamsungBrowser/")
                || ua.contains("UCBrowser/")
                || ua.contains("YaBrowser/")
                || ua.contains("Vivaldi/")) {
            return null;
        }
        if (ua.contains("Firefox/") || ua.contains("FxiOS/")) {
            return Browser.FIREFOX;
        }
        if (ua.contains("Chrome/") || ua.contains("CriOS/") || ua.contains("Chromium/")) {
            return ua.contains("; wv)") ? null : Browser.CHROME;
        }
        if (ua.contains("Android") && ua.contains("Version/") && ua.contains("Safari/")) {
            return Browser.ANDROID_BROWSER;
        }
        if (ua.contains("Safari/") && ua.contains("Version/")) {
            return Browser.SAFARI;
        }
        return null;
    }
}
