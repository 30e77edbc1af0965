package dev.shortgate.redirect.warmup;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.lookup.LinkLookup;
import dev.shortgate.system.redis.SharedRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.spi.ConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Wires the warm-up: the readiness indicator {@code warmedUp}, the hot codes (shared through Redis when it is
 * configured), the marks of warm-up requests, and the two moments: the traffic port known, then the application
 * ready (the warm-up starts; readiness stays down until it ends or its deadline passes).
 */
@Configuration(proxyBeanMethods = false)
class WarmupConfiguration {

    private static final Logger log = LoggerFactory.getLogger(WarmupConfiguration.class);

    private final AtomicInteger trafficPort = new AtomicInteger();
    private volatile Disposable publishing;
    private volatile Disposable warming;

    @Bean
    WarmupRequests warmupRequests(WarmupProperties properties) {
        return properties.enabled() ? WarmupRequests.random() : WarmupRequests.NONE;
    }

    @Bean
    WarmupReadiness warmedUp(WarmupProperties properties) {
        return properties.enabled() ? new WarmupReadiness() : WarmupReadiness.ready();
    }

    @Bean
    HotCodes hotCodes(
            ObjectProvider<SharedRedis> redis, RedirectProperties redirect, WarmupProperties properties, Clock clock) {
        SharedRedis shared = redis.getIfAvailable();
        if (shared == null) {
            return HotCodes.NONE;
        }
        return new HotCodes(
                shared,
                redirect.redis().keyPrefix(),
                clock,
                properties.hotCodes(),
                properties.sampleOneIn(),
                properties.window());
    }

    @Bean
    Warmup warmup(
            HotCodes hot,
            LinkLookup lookup,
            WarmupRequests marks,
            WarmupProperties properties,
            ConnectionFactory database,
            DatabaseClient sql,
            ObjectProvider<SharedRedis> redis,
            MeterRegistry registry) {
        Mono<?> r2dbc = database instanceof ConnectionPool pool ? pool.warmup() : Mono.empty();
        Mono<?> queries = Flux.range(0, properties.concurrency())
                .flatMap(i -> sql.sql("SELECT 1").fetch().first())
                .then();
        SharedRedis shared = redis.getIfAvailable();
        Mono<?> lettuce = shared == null
                ? Mono.empty()
                : shared.commands().flatMap(c -> c.server().ping());
        return new Warmup(
                r2dbc.then(queries).then(lettuce.onErrorResume(e -> Mono.empty())),
                hot,
                lookup,
                marks,
                properties,
                Schedulers.parallel(),
                JitActivity.ofThisJvm(),
                registry);
    }

    @EventListener
    void onServer(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() == null) { // the traffic port, not management's
            trafficPort.set(event.getWebServer().getPort());
        }
    }

    @EventListener
    void onReady(ApplicationReadyEvent event) {
        var context = event.getApplicationContext();
        WarmupProperties properties = context.getBean(WarmupProperties.class);
        HotCodes hot = context.getBean(HotCodes.class);
        if (hot != HotCodes.NONE && publishing == null) {
            Duration every = properties.publishEvery();
            publishing = Flux.interval(every, every, Schedulers.parallel())
                    .concatMap(tick -> hot.publish().timeout(every).onErrorResume(error -> {
                        log.debug("Could not publish the hot codes: {}", error.toString());
                        return Mono.empty();
                    }))
                    .subscribe();
        }
        if (!properties.enabled() || warming != null) {
            return;
        }
        WarmupReadiness readiness = context.getBean(WarmupReadiness.class);
        Warmup warmup = context.getBean(Warmup.class);
        warming = readiness
                .warm(warmup.run(trafficPort.get()), properties.deadline(), Schedulers.parallel())
                .subscribe();
    }

    @jakarta.annotation.PreDestroy
    void stop() {
        Disposable p = publishing;
        if (p != null) {
            p.dispose();
        }
        Disposable w = warming;
        if (w != null) {
            w.dispose();
        }
    }
}
