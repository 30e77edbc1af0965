package dev.shortgate.redirect.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * How busy the JIT compilers have been: the time they spent compiling over the wall time that passed, since the last
 * look ({@link CompilationMXBean#getTotalCompilationTime()}, summed over the compiler threads, so 1.0 is one compiler
 * thread busy all along).
 *
 * <p>The warm-up's requests alone do not get the request path to the JIT's top tier: a starting JVM's queue of
 * compilations (Spring's startup, then the request path's own) raises the thresholds of the optimizing compiler, and
 * in a bench on two cores the request path's largest methods ({@code Redirects.answer}, Netty's HTTP decoder) were
 * still running in the profiling tier 40 to 60 seconds into full load. The warm-up keeps sending requests while the
 * compilers stay busy, so the pod reports ready once that queue has drained.
 */
final class JitActivity {

    /** A JVM that does not report compilation time: always quiet, so the warm-up stops at its request count. */
    static final JitActivity UNKNOWN = new JitActivity(() -> 0, System::nanoTime);

    private final LongSupplier compilingMillis;
    private final LongSupplier nanoTime;
    private long markedCompiling;
    private long markedNanos;

    JitActivity(LongSupplier compilingMillis, LongSupplier nanoTime) {
        this.compilingMillis = compilingMillis;
        this.nanoTime = nanoTime;
        mark();
    }

    /** This JVM's compilers, or {@link #UNKNOWN} when it does not report their time. */
    static JitActivity ofThisJvm() {
        CompilationMXBean compilers = ManagementFactory.getCompilationMXBean();
        if (compilers == null || !compilers.isCompilationTimeMonitoringSupported()) {
            return UNKNOWN;
        }
        return new JitActivity(compilers::getTotalCompilationTime, System::nanoTime);
    }

    /** Starts a new window. */
    synchronized void mark() {
        markedCompiling = compilingMillis.getAsLong();
        markedNanos = nanoTime.getAsLong();
    }

    /** Milliseconds since {@link #mark()}. */
    synchronized long elapsedMillis() {
        return (nanoTime.getAsLong() - markedNanos) / 1_000_000;
    }

    /** Compiling time over wall time since {@link #mark()}; 0 when no time has passed. */
    synchronized double busy() {
        long wallMillis = elapsedMillis();
        if (wallMillis <= 0) {
            return 0;
        }
        return (double) (compilingMillis.getAsLong() - markedCompiling) / wallMillis;
    }
}
