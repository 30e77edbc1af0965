package dev.shortgate.redirect;

import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.HEAD;

import java.time.Clock;

import dev.shortgate.security.ApiRateLimiter;
import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.visit.VisitCounts;
import dev.shortgate.visit.VisitRecorder;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
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
    RedirectAnswer.Factory redirectAnswers(RedirectProperties properties) {
        return new RedirectAnswer.Factory(properties);
    }

    @Bean
    Redirects redirects(LinkLookup lookup, RedirectAnswer.Factory answers, VisitRecorder visits,
                        VisitCounts visitCounts, ApiRateLimiter rateLimiter, Clock clock, RedirectMetrics metrics,
                        RedirectProperties properties) {
        return new Redirects(lookup, answers, visits, visitCounts, rateLimiter, clock, metrics, properties);
    }

    @Bean
    RedirectHandler redirectHandler(Redirects redirects, ClientIpResolver clientIps) {
        return new RedirectHandler(redirects, clientIps);
    }

    @Bean
    RouterFunction<ServerResponse> redirectRoute(RedirectHandler handler) {
        return RouterFunctions.route(GET("/{code}").or(HEAD("/{code}")), handler::handle);
    }

    @Bean
    FastRedirects fastRedirects(NearCache near, Redirects redirects, RedirectMetrics metrics,
                                ClientIpResolver clientIps, MeterRegistry registry) {
        return new FastRedirects(near, redirects, metrics, clientIps, registry);
    }

    /**
     * Puts the fast path into each traffic connection's pipeline, just ahead of Reactor Netty's HTTP handling.
     * The customizer reaches the management server too; its connections are left alone (by their port).
     */
    @Bean
    NettyServerCustomizer fastRedirectsInPipeline(FastRedirects fast, RedirectProperties properties) {
        return server -> !properties.fastPath() ? server : server.doOnChannelInit((observer, channel, remote) -> {
            if (fast.serves(channel.localAddress()) && channel.pipeline().get(NettyPipeline.HttpTrafficHandler) != null) {
                channel.pipeline().addBefore(NettyPipeline.HttpTrafficHandler, "shortgate.fastRedirects",
                        fast.newConnection());
            }
        });
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
