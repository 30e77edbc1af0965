package dev.shortgate.system;

import io.r2dbc.spi.ConnectionFactory;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Where redirect-path queries run. r2dbc-mysql is non-blocking, so its queries stay where they are. r2dbc-h2 runs
 * H2 on the calling thread and can wait there on a lock (for example a counter row the visit writer is
 * updating); on an event loop that would stall every connection it serves and defeat the query's timeout, so
 * embedded-mode queries on the redirect path move to the bounded-elastic workers.
 */
public final class BlockingDrivers {

    private BlockingDrivers() {
    }

    public static Scheduler schedulerFor(ConnectionFactory connectionFactory) {
        String name = connectionFactory.getMetadata().getName();
        return name != null && name.contains("H2") ? Schedulers.boundedElastic() : Schedulers.immediate();
    }
}
