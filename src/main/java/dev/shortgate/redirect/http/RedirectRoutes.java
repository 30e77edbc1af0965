package dev.shortgate.redirect.http;

import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.HEAD;
import static org.springframework.web.reactive.function.server.RequestPredicates.path;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.domain.DomainRedirects;
import dev.shortgate.redirect.RedirectProperties;
import dev.shortgate.redirect.lookup.NearCache;
import dev.shortgate.rules.RuleEngine;
import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.visit.intake.VisitRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.netty.NettyPipeline;

/**
 * The redirect paths: the fast path in the traffic server's Netty pipeline, and the general route for what it
 * hands on (a single path segment, GET or HEAD; the API lives under {@code /api}, two segments deep).
 */
@Configuration(proxyBeanMethods = false)
class RedirectRoutes {

    @Bean
    RedirectMetrics redirectMetrics(Ticker ticker, MeterRegistry registry) {
        return new RedirectMetrics(ticker, registry);
    }

    @Bean
    RedirectsByDomain redirectsByDomain(Domains domains, MeterRegistry registry) {
        return RedirectsByDomain.of(domains, registry);
    }

    @Bean
    RedirectAnswer.Factory redirectAnswers(RedirectProperties properties, RuleEngine rules) {
        return new RedirectAnswer.Factory(properties, rules);
    }

    @Bean
    RedirectHandler redirectHandler(Redirects redirects, ClientIpResolver clientIps, Domains domains) {
        return new RedirectHandler(redirects, clientIps, domains);
    }

    @Bean
    RouterFunction<ServerResponse> redirectRoute(RedirectHandler handler) {
        // /robots.txt is Shlink's adapter's; no code has a dot, so no link is hidden by it.
        return RouterFunctions.route(
                        GET("/{code}")
                                .or(HEAD("/{code}"))
                                .and(path("/robots.txt").negate()),
                        handler::handle)
                .andRoute(GET("/{code}/track"), handler::track);
    }

    @Bean
    FastRedirects fastRedirects(
            NearCache near,
            Redirects redirects,
            RedirectMetrics metrics,
            ClientIpResolver clientIps,
            MeterRegistry registry,
            RedirectProperties properties,
            Domains domains) {
        return new FastRedirects(near, redirects, metrics, clientIps, domains, registry, properties.fastPath());
    }

    /**
     * Records {@code GET /} and the traffic port's other unhandled 404s as orphan visits, and sends them to the
     * domain's redirects when it has them.
     */
    @Bean
    NotFoundVisits notFoundVisits(
            FastRedirects fast,
            VisitRecorder visits,
            ClientIpResolver clientIps,
            DomainRedirects redirects,
            Domains domains) {
        return new NotFoundVisits(fast, visits, clientIps, redirects, domains);
    }

    /**
     * Puts the fast path into each traffic connection's pipeline, just ahead of Reactor Netty's HTTP handling (with
     * {@code fast-path} off it hands every request on, and only drains the connection on shutdown). The customizer
     * reaches the management server too; its connections are left alone (by their port).
     */
    @Bean
    NettyServerCustomizer fastRedirectsInPipeline(FastRedirects fast) {
        return server -> server.doOnChannelInit((observer, channel, remote) -> {
            if (fast.serves(channel.localAddress())
                    && channel.pipeline().get(NettyPipeline.HttpTrafficHandler) != null) {
                channel.pipeline()
                        .addBefore(NettyPipeline.HttpTrafficHandler, "shortgate.fastRedirects", fast.newConnection());
            }
        });
    }

    /**
     * Drains the traffic port on shutdown, before the web server's graceful shutdown (which would close at once every
     * connection without a request in Reactor Netty's hands) and so before recording closes.
     */
    @Bean
    SmartLifecycle trafficDrain(FastRedirects fast, RedirectProperties properties) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                running = true;
            }

            /** Spring stops a {@link SmartLifecycle} through {@link #stop(Runnable)}; this starts the same drain. */
            @Override
            public void stop() {
                stop(() -> {});
            }

            @Override
            public void stop(Runnable callback) {
                running = false;
                fast.drain(properties.drainTimeout())
                        .doFinally(signal -> callback.run())
                        .subscribe();
            }

            @Override
            public boolean isRunning() {
                return running;
            }

            @Override
            public int getPhase() {
                return WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE + 1;
            }
        };
    }

    /** The traffic server's port, once bound (the management server has a namespace of its own). */
    @Bean
    ApplicationListener<ReactiveWebServerInitializedEvent> fastRedirectsPort(FastRedirects fast) {
        return event -> {
            if (WebServerApplicationContext.getServerNamespace(event.getApplicationContext()) == null) {
                fast.serve(event.getWebServer().getPort());
            }
        };
    }
}
