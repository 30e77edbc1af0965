package dev.shortgate.system;

import io.micrometer.core.instrument.config.MeterFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keeps a scrape small (issue 28: at most 300 series a pod, at rest and under load). Series nothing reads are left
 * out here; {@code application.yaml}'s {@code management.metrics.enable} leaves out the RabbitMQ client's and the
 * task executor's, and the meters of drops and imports appear at their first use.
 */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    /**
     * The API's requests in flight, a long task timer per route (three series each): {@code http.server.requests}
     * has their count and time once they end, and the dashboard reads that one.
     */
    @Bean
    MeterFilter noActiveRequestTimers() {
        return MeterFilter.denyNameStartsWith("http.server.requests.active");
    }

    /** The JDK's buffer pool for non-volatile memory, always empty here: three series of zeros. */
    @Bean
    MeterFilter noNonVolatileMemoryBufferPool() {
        return MeterFilter.deny(id ->
                id.getName().startsWith("jvm.buffer.") && "mapped - 'non-volatile memory'".equals(id.getTag("id")));
    }
}
