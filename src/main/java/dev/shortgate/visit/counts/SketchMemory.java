package dev.shortgate.visit.counts;

/**
 * Lets the HyperLogLog sketches run on a JDK newer than 21. datasketches-java 6.2, the last line that runs on JDK 17,
 * serializes and merges sketches through datasketches-memory 3.0.2, whose {@code ResourceImpl} checks the
 * {@code java.version} system property once, when the class initializes, and refuses any JDK but 8, 11, 17 and 21
 * ({@code IllegalArgumentException: Unsupported JDK Major Version}, wrapped in an {@link ExceptionInInitializerError}).
 * The lines that run on JDK 25 (datasketches-memory 4 and later, on the foreign memory API) do not run on JDK 17, and
 * both JDKs are supported. On JDK 25, the image's JVM, that error reached a database connection's event loop in the
 * first counts flush: the flusher stopped, no visit count was written after it, and the counts held at shutdown were
 * given up.
 *
 * <p>So on a JDK newer than 21 {@link #load()} initializes that class with {@code java.version} reading {@code 21}
 * for that moment, then puts the real value back. Nothing else of the library looks at the version: the same sketch
 * serializes to the same bytes and merges to the same estimate on JDK 17 and JDK 25 (checked by hand with 10,000
 * visitors: 2,088 bytes, estimate 10,107 on both). The JDK prints one warning at the first use of
 * {@code sun.misc.Unsafe}'s memory access (JEP 498), which the library uses on every JDK.
 */
final class SketchMemory {

    /** The class of datasketches-memory that checks the JDK's version when it initializes. */
    static final String CHECKED_CLASS = "org.apache.datasketches.memory.internal.ResourceImpl";

    /** The newest JDK feature release datasketches-memory 3.0.2 accepts. */
    static final int NEWEST_ACCEPTED = 21;

    private static boolean loaded;

    private SketchMemory() {}

    /** Initializes datasketches-memory's checked class once, on any JDK; call before the first sketch. */
    static synchronized void load() {
        if (loaded) {
            return;
        }
        String version = System.getProperty("java.version");
        boolean newer = Runtime.version().feature() > NEWEST_ACCEPTED;
        if (newer) {
            System.setProperty("java.version", String.valueOf(NEWEST_ACCEPTED));
        }
        try {
            Class.forName(CHECKED_CLASS, true, SketchMemory.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("datasketches-memory is not on the class path", e);
        } finally {
            if (newer) {
                System.setProperty("java.version", version);
            }
        }
        loaded = true;
    }
}
