package dev.shortgate.visit;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.security.ClientIpResolver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;

/**
 * Takes visits from the redirect path and gets them written, without ever making a redirect wait or fail.
 *
 * <p>{@link #record} takes the cheap facts of a visit on the event loop and offers them to a bounded buffer: at
 * most {@code buffer-capacity} visits are held at once, counting those queued, waiting in a batch and being
 * written. A visit that finds the buffer full is dropped and counted ({@code shortgate.visits.dropped}, reason
 * {@code buffer_full}). The buffer drains into batches of up to {@code batch-size} visits or {@code flush-interval}
 * of waiting, whichever comes first ({@code bufferTimeout}); {@code write-concurrency} batches are written at a time.
 * A failed batch is retried with exponential backoff; if it still fails its visits are dropped and counted
 * ({@code write_failed}). While a batch retries, it keeps its place in the buffer, so a long outage fills the
 * buffer and sheds new visits rather than memory.
 *
 * <p>As a {@link SmartLifecycle} it starts before the web server and stops after it: on shutdown the server first
 * finishes its requests (graceful shutdown), then the buffer is completed and everything in it is written, for at
 * most {@code shutdown-flush-timeout}. Whatever is still held then is counted as dropped ({@code shutdown}).
 */
public final class VisitRecorder implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(VisitRecorder.class);

    /** After the web server has stopped (it stops at {@link WebServerApplicationContext#START_STOP_LIFECYCLE_PHASE}). */
    static final int PHASE = WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 1024;

    /** Writes one batch, or fails; retries and counting are the recorder's. */
    @FunctionalInterface
    interface BatchWriter {
        Mono<Void> write(List<RawVisit> batch);
    }

    private final VisitProperties properties;
    private final ClientIpResolver clientIps;
    private final VisitId ids;
    private final BatchWriter writer;
    private final Clock clock;
    private final Scheduler timer;

    private final AtomicInteger held = new AtomicInteger();
    private final Counter written;
    private final Counter droppedBufferFull;
    private final Counter droppedWriteFailed;
    private final Counter droppedShutdown;
    private final DistributionSummary batchSizes;
    private final Timer flushes;

    private volatile FluxSink<RawVisit> sink;
    private volatile boolean accepting;
    private volatile boolean running;
    private Disposable pipeline;
    private final Sinks.Empty<Void> drained = Sinks.empty();

    VisitRecorder(VisitProperties properties, ClientIpResolver clientIps, VisitId ids, BatchWriter writer, Clock clock,
                  Scheduler timer, MeterRegistry registry) {
        this.properties = properties;
        this.clientIps = clientIps;
        this.ids = ids;
        this.writer = writer;
        this.clock = clock;
        this.timer = timer;
        Gauge.builder("shortgate.visits.buffered", held, AtomicInteger::get)
                .description("Visits held in memory: queued, batched or being written")
                .register(registry);
        this.written = Counter.builder("shortgate.visits.written")
                .description("Visits written to the database").register(registry);
        this.droppedBufferFull = dropped(registry, "buffer_full");
        this.droppedWriteFailed = dropped(registry, "write_failed");
        this.droppedShutdown = dropped(registry, "shutdown");
        this.batchSizes = DistributionSummary.builder("shortgate.visits.batch.size")
                .description("Visits per written batch").register(registry);
        this.flushes = Timer.builder("shortgate.visits.flush")
                .description("Time to write one batch of visits, retries included").register(registry);
    }

    private static Counter dropped(MeterRegistry registry, String reason) {
        return Counter.builder("shortgate.visits.dropped").tag("reason", reason)
                .description("Visits not recorded: buffer full, write failed after retries, or still held at shutdown")
                .register(registry);
    }

    /**
     * Records a visit to {@code code} made by {@code request}. Takes microseconds, never blocks and never throws.
     * Call it for GET only: HEAD requests are not visits.
     */
    public void record(ServerRequest request, String code) {
        if (!properties.enabled()) {
            return;
        }
        HttpHeaders headers = request.headers().asHttpHeaders();
        record(code, clientIps.resolve(request), headers.getFirst(HttpHeaders.USER_AGENT),
                headers.getFirst(HttpHeaders.REFERER));
    }

    /**
     * Records a visit to {@code code} from plain facts: the client address (already resolved through the trusted
     * proxies) and the raw {@code User-Agent} and {@code Referer} headers, each possibly {@code null}. Takes
     * microseconds, never blocks and never throws.
     */
    public void record(String code, InetAddress clientIp, String userAgent, String referer) {
        if (!properties.enabled()) {
            return;
        }
        try {
            var at = clock.instant();
            offer(new RawVisit(ids.next(at), code, at, clientIp, truncate(userAgent, properties.userAgentMaxLength()),
                    truncate(referer, properties.refererMaxLength())));
        } catch (RuntimeException e) {
            log.debug("Could not take a visit: {}", e.toString());
        }
    }

    /** Puts a visit in the buffer; {@code false} (and a counted drop) when the buffer is full or closed. */
    boolean offer(RawVisit visit) {
        FluxSink<RawVisit> target = sink;
        if (!accepting || target == null) {
            droppedShutdown.increment();
            return false;
        }
        if (held.incrementAndGet() > properties.bufferCapacity()) {
            held.decrementAndGet();
            droppedBufferFull.increment();
            return false;
        }
        target.next(visit);
        return true;
    }

    /** Visits held now: queued, batched or being written. */
    int held() {
        return held.get();
    }

    /** Batches of at most {@code maxSize} items, each emitted when full or {@code maxTime} after its first item. */
    static <T> Flux<List<T>> batches(Flux<T> source, int maxSize, Duration maxTime, Scheduler timer) {
        return source.bufferTimeout(maxSize, maxTime, timer, true);
    }

    @Override
    public synchronized void start() {
        if (running || !properties.enabled()) {
            return;
        }
        // Flux.create's sink is safe for many producers at once (every event loop calls record); the capacity is
        // enforced by `held`, so its own queue never holds more than buffer-capacity visits.
        Flux<RawVisit> source = Flux.create(created -> sink = created, FluxSink.OverflowStrategy.BUFFER);
        pipeline = batches(source, properties.batchSize(), properties.flushInterval(), timer)
                .flatMap(this::write, properties.writeConcurrency())
                .subscribe(null,
                        error -> {
                            log.error("Visit pipeline stopped on an unexpected error", error);
                            drained.tryEmitEmpty();
                        },
                        drained::tryEmitEmpty);
        accepting = true;
        running = true;
    }

    private Mono<Void> write(List<RawVisit> batch) {
        int size = batch.size();
        long start = System.nanoTime();
        return writer.write(batch)
                .retryWhen(Retry.backoff(properties.retryAttempts(), properties.retryBackoff())
                        .scheduler(timer)
                        .doBeforeRetry(signal -> log.warn("Writing {} visits failed (attempt {}); retrying: {}", size,
                                signal.totalRetries() + 1, signal.failure().toString())))
                .then(Mono.fromRunnable(() -> {
                    written.increment(size);
                    batchSizes.record(size);
                }))
                .onErrorResume(error -> {
                    droppedWriteFailed.increment(size);
                    log.error("Dropped {} visits: writing them failed after {} retries: {}", size,
                            properties.retryAttempts(), rootCause(error).toString());
                    return Mono.empty();
                })
                .doFinally(signal -> {
                    flushes.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                    if (signal != SignalType.CANCEL) {
                        held.addAndGet(-size); // a cancelled batch was counted as a shutdown drop already
                    }
                })
                .then();
    }

    @Override
    public void stop() {
        stop(() -> { });
    }

    /** Completes the buffer and lets the writer drain it, then calls back; never later than the flush timeout. */
    @Override
    public void stop(Runnable callback) {
        FluxSink<RawVisit> target;
        synchronized (this) {
            if (!running) {
                callback.run();
                return;
            }
            running = false;
            accepting = false;
            target = sink;
        }
        int pending = held.get();
        log.info("Flushing {} buffered visits before shutdown", pending);
        target.complete();
        drained.asMono()
                .timeout(properties.shutdownFlushTimeout(), timer)
                .onErrorResume(timeout -> {
                    int left = held.getAndSet(0);
                    droppedShutdown.increment(left);
                    log.error("Shutdown flush timed out after {}; dropped {} visits still held",
                            properties.shutdownFlushTimeout(), left);
                    pipeline.dispose();
                    return Mono.empty();
                })
                .doFinally(signal -> callback.run())
                .subscribe();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    static String truncate(String value, int max) {
        if (value == null) {
            return null;
        }
        if (value.length() <= max) {
            return value;
        }
        int end = max;
        if (Character.isHighSurrogate(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(0, end);
    }

    private static Throwable rootCause(Throwable error) {
        Throwable t = error;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
