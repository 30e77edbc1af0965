package dev.shortgate.visit.enrich;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import nl.basjes.parse.useragent.AgentField;
import nl.basjes.parse.useragent.UserAgent;
import nl.basjes.parse.useragent.UserAgentAnalyzer;

/**
 * Parses user agents with Yauaa, asking only for the four fields we store, and keeps the answers (bot flag included)
 * for the most recent {@value #CACHE_SIZE} agents, so a returning agent costs one hash look-up: real traffic has few
 * distinct agents, and every raw row and every count flush asks again. Yauaa's own cache is off, since it would hold
 * the same agents a second time, and a hit there still builds and copies a result per call.
 * Building the analyzer takes seconds and a lot of memory, so there is one per process ({@link #shared()}), built
 * on first use on a worker thread (the application warms it up in the background at start), never on a request.
 * An empty or missing agent is classed by Yauaa as device class {@code Hacker}, so it counts as a bot.
 *
 * <p>A visit is a bot when Yauaa's device class says so, or when the agent is a known link-preview fetcher
 * (chat and social apps that fetch a link to draw its card; Yauaa calls some of them browsers).
 */
public final class UserAgentParser {

    /** Yauaa device classes that are not a person at a browser. */
    static final Set<String> BOT_DEVICE_CLASSES = Set.of("Robot", "Robot Mobile", "Robot Imitator", "Spy", "Hacker");

    /** Lower-case fragments of link-preview agents. */
    static final List<String> PREVIEW_AGENTS = List.of(
            "slackbot",
            "slack-imgproxy",
            "twitterbot",
            "facebookexternalhit",
            "facebookcatalog",
            "whatsapp",
            "telegrambot",
            "discordbot",
            "linkedinbot",
            "skypeuripreview",
            "pinterestbot",
            "redditbot",
            "embedly",
            "iframely",
            "vkshare",
            "bitlybot",
            "mattermost",
            "google-pagerenderer",
            "applebot");

    static final int CACHE_SIZE = 10_000;
    /** Agents longer than this are parsed each time and never kept, so giant agents cannot fill the cache. */
    static final int MAX_CACHED_LENGTH = 4_096;

    /** @param browser name, @param browserVersion version, @param os name, @param deviceClass class; each may be null */
    public record Parsed(String browser, String browserVersion, String os, String deviceClass, boolean bot) {}

    private static final Lazy<UserAgentParser> SHARED = new Lazy<>(UserAgentParser::new);

    private final UserAgentAnalyzer analyzer;
    private final Cache<String, Parsed> parsed =
            Caffeine.newBuilder().maximumSize(CACHE_SIZE).build();

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(UserAgentParser.class);
    private static final long RETRY_AFTER_FAILURE_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(5);
    private static volatile long failedAt;
    private static volatile boolean failed;

    /** The process's parser, built by the first caller. */
    static UserAgentParser shared() {
        return SHARED.get();
    }

    /**
     * The process's parser, or {@code null} when it cannot be built (Yauaa needs a few hundred MB of heap while it
     * builds). Visits are then still written, without browser, OS and device class; the build is tried again
     * after five minutes rather than on every batch.
     */
    public static UserAgentParser sharedOrNull() {
        if (failed && System.nanoTime() - failedAt < RETRY_AFTER_FAILURE_NANOS) {
            return null;
        }
        try {
            UserAgentParser parser = SHARED.get();
            failed = false;
            return parser;
        } catch (RuntimeException | OutOfMemoryError e) {
            failedAt = System.nanoTime();
            failed = true;
            log.warn(
                    "Could not build the user-agent parser ({}); visits are written without browser, OS and "
                            + "device class until it can be built. Give the JVM more heap.",
                    e.toString());
            return null;
        }
    }

    /** What is known of an agent without the parser: only whether it looks automated ({@link #looksLikeBot}). */
    static Parsed unparsed(String userAgent) {
        return new Parsed(null, null, null, null, looksLikeBot(userAgent));
    }

    private UserAgentParser() {
        this.analyzer = UserAgentAnalyzer.newBuilder()
                .hideMatcherLoadStats()
                .dropTests()
                .withoutCache()
                .withField(UserAgent.AGENT_NAME)
                .withField(UserAgent.AGENT_VERSION)
                .withField(UserAgent.OPERATING_SYSTEM_NAME)
                .withField(UserAgent.DEVICE_CLASS)
                .immediateInitialization()
                .build();
    }

    Parsed parse(String userAgent) {
        String agent = userAgent == null ? "" : userAgent;
        if (agent.length() > MAX_CACHED_LENGTH) {
            return analyze(agent);
        }
        Parsed known = parsed.getIfPresent(agent);
        if (known == null) { // not get(key, loader): two threads may parse one agent, neither waits on the other
            known = analyze(agent);
            parsed.put(agent, known);
        }
        return known;
    }

    private Parsed analyze(String agent) {
        UserAgent parsed = analyzer.parse(agent);
        String deviceClass = value(parsed.get(UserAgent.DEVICE_CLASS));
        boolean bot = (deviceClass != null && BOT_DEVICE_CLASSES.contains(deviceClass)) || isPreviewAgent(agent);
        return new Parsed(
                value(parsed.get(UserAgent.AGENT_NAME)),
                value(parsed.get(UserAgent.AGENT_VERSION)),
                value(parsed.get(UserAgent.OPERATING_SYSTEM_NAME)),
                deviceClass,
                bot);
    }

    /** Lower-case fragments that mark an agent as automated, for {@link #looksLikeBot}. */
    static final List<String> BOT_FRAGMENTS = List.of(
            "bot",
            "crawl",
            "spider",
            "slurp",
            "curl/",
            "wget/",
            "python-",
            "python/",
            "java/",
            "go-http-client",
            "okhttp",
            "http://",
            "https://",
            "headless");

    /**
     * Whether an agent looks automated, from its text alone, without Yauaa: missing or blank, a link-preview
     * fetcher, or a telltale fragment. Used only where parsing is not allowed (the event loop) and the parsed
     * answer is not cached yet.
     */
    public static boolean looksLikeBot(String userAgent) {
        if (userAgent == null || userAgent.isBlank()) {
            return true;
        }
        String lower = userAgent.toLowerCase(Locale.ROOT);
        for (String fragment : BOT_FRAGMENTS) {
            if (lower.contains(fragment)) {
                return true;
            }
        }
        return isPreviewAgent(userAgent);
    }

    static boolean isPreviewAgent(String userAgent) {
        String lower = userAgent.toLowerCase(Locale.ROOT);
        for (String fragment : PREVIEW_AGENTS) {
            if (lower.contains(fragment)) {
                return true;
            }
        }
        return false;
    }

    /** Yauaa's placeholders ({@code Unknown}, {@code ??}) become null, so they never top a chart. */
    private static String value(AgentField field) {
        if (field == null || field.isDefaultValue()) {
            return null;
        }
        String value = field.getValue();
        return value == null || value.isBlank() || "??".equals(value) || "Unknown".equals(value) ? null : value;
    }
}
