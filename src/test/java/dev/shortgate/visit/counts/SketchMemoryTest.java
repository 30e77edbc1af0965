package dev.shortgate.visit.counts;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;

/**
 * datasketches-memory is initialized on any JDK without leaving a trace in the JVM's properties; on JDK 25 the
 * packaged jar is checked end to end by {@code .ci/jdk25-check.sh}.
 */
class SketchMemoryTest {

    @Test
    void loadingLeavesTheJavaVersionAsItWasAndSketchesSerialize() {
        String version = System.getProperty("java.version");

        SketchMemory.load();
        SketchMemory.load();

        assertThat(System.getProperty("java.version")).isEqualTo(version);
        HllSketch sketch = new HllSketch(UniqueVisitors.LG_K, TgtHllType.HLL_4);
        for (int i = 0; i < 1_000; i++) {
            sketch.update("visitor-" + i);
        }
        assertThat(HllSketch.heapify(sketch.toCompactByteArray()).getEstimate()).isBetween(950.0, 1_050.0);
    }
}
