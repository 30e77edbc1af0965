package dev.shortgate.events;

import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.store.LinkRepository;
import dev.shortgate.link.store.LinkTags;
import dev.shortgate.system.redis.RedisConfigured;
import dev.shortgate.system.redis.SharedRedis;
import dev.shortgate.system.settings.ShortgateProperties;
import dev.shortgate.visit.VisitTap;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.amqp.autoconfigure.ConnectionFactoryCustomizer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.CorsWebFilter;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.json.JsonMapper;

/** The event source, the Mercure hub and Shlink's integrations. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(EventsProperties.class)
class EventsConfiguration {

    @Bean(destroyMethod = "dispose")
    Scheduler eventsWorker() {
        return Schedulers.newSingle("shortgate-events", true);
    }

    @Bean
    MercureTokens mercureTokens(EventsProperties properties, Clock clock) {
        return new MercureTokens(properties.mercure().jwtSecret(), clock);
    }

    @Bean
    MercureHub mercureHub(EventsProperties properties, MeterRegistry registry) {
        EventsProperties.Mercure mercure = properties.mercure();
        return new MercureHub(
                mercure.maxSubscribers(),
                mercure.subscriberBuffer(),
                mercure.heartbeat(),
                Schedulers.parallel(),
                registry);
    }

    @Bean
    MercureController mercureController(
            EventsProperties properties,
            ShortgateProperties shortgate,
            MercureTokens tokens,
            MercureHub hub,
            Clock clock) {
        URI origin = properties.mercure().publicHubUrl() != null
                ? properties.mercure().publicHubUrl()
                : shortgate.baseUrl();
        return new MercureController(properties.mercure(), origin, tokens, hub, clock);
    }

    /**
     * CORS for the hub, so shlink-web-client served from another origin can open it: the hub's own origins, or those
     * Shlink's API allows. Preflights are answered here.
     */
    @Bean
    CorsWebFilter mercureCors(EventsProperties properties, Environment environment) {
        List<String> origins = properties.mercure().corsAllowedOrigins();
        if (origins.isEmpty()) {
            origins = Binder.get(environment)
                    .bind("shortgate.shlink.cors-allowed-origins", Bindable.listOf(String.class))
                    .orElse(List.of());
        }
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        if (!origins.isEmpty()) {
            CorsConfiguration cors = new CorsConfiguration();
            cors.setAllowedOriginPatterns(origins);
            cors.setAllowedMethods(List.of("GET"));
            cors.setAllowedHeaders(List.of("*"));
            cors.setAllowCredentials(true);
            cors.setMaxAge(3600L);
            source.registerCorsConfiguration(MercureController.HUB_PATH, cors);
        }
        return new CorsWebFilter(source);
    }

    @Bean
    @RedisConfigured
    @ConditionalOnBooleanProperty(name = "shortgate.events.mercure.enabled", matchIfMissing = true)
    MercureFanOut mercureFanOut(
            EventsProperties properties,
            SharedRedis redis,
            ReactiveRedisConnectionFactory connections,
            MercureHub hub,
            MeterRegistry registry) {
        return new MercureFanOut(
                new RedisChannels(redis, "mercure_fanout", registry),
                connections,
                properties.mercure().channel(),
                hub,
                MercureFanOut.PRESENCE_PERIOD,
                System::nanoTime);
    }

    @Bean
    @RedisConfigured
    @ConditionalOnBooleanProperty("shortgate.events.redis.enabled")
    RedisTopics redisTopics(EventsProperties properties, SharedRedis redis, MeterRegistry registry) {
        return new RedisTopics(
                new RedisChannels(redis, "redis", registry), properties.redis().perCodeTopic());
    }

    @Bean
    @ConditionalOnBooleanProperty("shortgate.events.rabbitmq.enabled")
    RabbitTopics rabbitTopics(EventsProperties properties, RabbitTemplate rabbit, MeterRegistry registry) {
        return new RabbitTopics(
                rabbit,
                properties.rabbitmq(),
                Schedulers.newSingle("shortgate-events-rabbitmq", true),
                Schedulers.parallel(),
                registry);
    }

    /**
     * The RabbitMQ client on its NIO loop when {@code shortgate.events.rabbitmq.nio} asks for it: the blocking client
     * flushes its socket once per message, a system call per event; the loop writes what is queued when it wakes.
     */
    @Bean
    @ConditionalOnBooleanProperty("shortgate.events.rabbitmq.enabled")
    ConnectionFactoryCustomizer eventsRabbitNio(EventsProperties properties) {
        return factory -> {
            if (properties.rabbitmq().nio()) {
                factory.useNio();
            }
        };
    }

    @Bean
    @ConditionalOnBooleanProperty(name = "shortgate.events.enabled", matchIfMissing = true)
    EventSource eventSource(
            EventsProperties properties,
            ShortgateProperties shortgate,
            LinkRepository links,
            LinkTags tags,
            DatabaseClient db,
            VisitTap.Describer describer,
            JsonMapper json,
            Domains domains,
            MercureHub hub,
            ObjectProvider<RedisTopics> redisTopics,
            ObjectProvider<RabbitTopics> rabbitTopics,
            Scheduler eventsWorker,
            Ticker ticker,
            MeterRegistry registry) {
        List<UpdateSink> sinks = new ArrayList<>();
        if (properties.mercure().enabled()) {
            sinks.add(hub);
        }
        redisTopics.ifAvailable(sinks::add);
        rabbitTopics.ifAvailable(sinks::add);
        ShortUrls shortUrls = new ShortUrls(
                links, tags, db, shortgate.baseUrl().toString(), properties.shortUrlCacheTtl(), domains::hostOf);
        ShlinkPayloads payloads = new ShlinkPayloads(
                shortUrls, describer, json, shortgate.baseUrl().toString());
        return new EventSource(
                payloads,
                sinks,
                properties.bufferCapacity(),
                properties.maxRate(),
                properties.flushInterval(),
                ticker,
                eventsWorker,
                registry);
    }
}
