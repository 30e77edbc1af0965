package dev.shortgate.visit;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

import dev.shortgate.security.ClientIpResolver;
import dev.shortgate.system.database.DatabaseDialect;
import dev.shortgate.system.settings.SharedSecrets;
import dev.shortgate.visit.counts.UniqueVisitors;
import dev.shortgate.visit.counts.VisitCountFlusher;
import dev.shortgate.visit.counts.VisitCountWriter;
import dev.shortgate.visit.counts.VisitDeletion;
import dev.shortgate.visit.counts.VisitTally;
import dev.shortgate.visit.enrich.GeoLocator;
import dev.shortgate.visit.enrich.UserAgentParser;
import dev.shortgate.visit.enrich.VisitEnricher;
import dev.shortgate.visit.intake.VisitBatchWriter;
import dev.shortgate.visit.intake.VisitRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkersFactoryResolver;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.util.StringUtils;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Wires the visit pipeline: recorder → batch writer → enricher (user agent, GeoIP) → database. */
@Configuration(proxyBeanMethods = false)
class VisitConfiguration {

    private static final Logger log = LoggerFactory.getLogger(VisitConfiguration.class);

    /** The {@code shortgate_setting} key of the generated client-id HMAC key. */
    static final String CLIENT_ID_KEY = "visit.client-id-key";

    @Bean
    @ConditionalOnMissingBean
    ClientIpResolver clientIpResolver(VisitProperties properties) {
        return new ClientIpResolver(properties.trustedProxies());
    }

    @Bean(destroyMethod = "close")
    GeoLocator geoLocator(VisitProperties properties) {
        return GeoLocator.open(properties.geoipDatabase());
    }

    @Bean
    VisitEnricher visitEnricher(VisitProperties properties, GeoLocator geo) {
        return new VisitEnricher(UserAgentParser::sharedOrNull, geo, properties.storeRawIp());
    }

    /**
     * Builds the user-agent parser in the background once the server is up, so the first batch need not. An
     * application without a web server (the {@code import} command) takes no visits: it never builds it, rather than
     * spend a few hundred MB of heap and seconds of CPU on it beside the import.
     */
    @Bean
    ApplicationListener<ApplicationReadyEvent> userAgentParserWarmUp(VisitProperties properties) {
        return event -> {
            if (properties.enabled()
                    && event.getSpringApplication().getWebApplicationType()
                            != org.springframework.boot.WebApplicationType.NONE) {
                Mono.fromRunnable(UserAgentParser::sharedOrNull)
                        .subscribeOn(Schedulers.boundedElastic())
                        .subscribe(null, error -> log.warn("Could not build the user-agent parser", error));
            }
        };
    }

    @Bean
    VisitTally visitTally(VisitProperties properties) {
        return new VisitTally(properties.maxDistinctPerCode(), UserAgentParser::looksLikeBot);
    }

    @Bean
    UniqueVisitors uniqueVisitors(Clock clock) {
        return new UniqueVisitors(clock);
    }

    @Bean
    MultiRowSql visitSql(
            DatabaseClient db,
            ConnectionFactory connectionFactory,
            DatabaseDialect dialect,
            VisitProperties properties) {
        return new MultiRowSql(
                db,
                BindMarkersFactoryResolver.resolve(connectionFactory),
                dialect.mysql(),
                properties.lockWaitSeconds());
    }

    @Bean
    VisitRecorder visitRecorder(
            VisitProperties properties,
            ClientIpResolver clientIps,
            VisitEnricher enricher,
            MultiRowSql sql,
            VisitTally tally,
            UniqueVisitors uniques,
            SharedSecrets secrets,
            ReactiveTransactionManager transactionManager,
            VisitCountFlusher counts,
            ObjectProvider<VisitTap> taps,
            Clock clock,
            MeterRegistry registry) {
        TransactionalOperator transactions = TransactionalOperator.create(transactionManager);
        VisitBatchWriter writer = new VisitBatchWriter(
                sql,
                transactions,
                enricher,
                Schedulers.boundedElastic(),
                StringUtils.hasText(properties.clientIdSecret())
                        ? Mono.just(properties.clientIdSecret().getBytes(StandardCharsets.UTF_8))
                        : secrets.get(CLIENT_ID_KEY));
        return new VisitRecorder(
                properties,
                clientIps,
                new VisitId(),
                writer,
                tally,
                uniques,
                counts,
                taps.getIfAvailable(() -> VisitTap.NONE),
                clock,
                Schedulers.parallel(),
                registry);
    }

    @Bean
    VisitCountFlusher visitCountFlusher(
            VisitProperties properties,
            VisitEnricher enricher,
            MultiRowSql sql,
            VisitTally tally,
            UniqueVisitors uniques,
            ReactiveTransactionManager transactionManager,
            Clock clock,
            MeterRegistry registry) {
        TransactionalOperator transactions = TransactionalOperator.create(transactionManager);
        return new VisitCountFlusher(
                tally,
                uniques,
                enricher,
                new VisitCountWriter(sql, transactions, clock),
                properties,
                clock,
                Schedulers.parallel(),
                Schedulers.boundedElastic(),
                registry);
    }

    @Bean
    VisitDeletion visitDeletion(
            DatabaseClient db,
            ReactiveTransactionManager transactionManager,
            VisitTally tally,
            UniqueVisitors uniques,
            VisitCountFlusher counts,
            VisitProperties properties,
            Clock clock) {
        return new VisitDeletion(
                db,
                TransactionalOperator.create(transactionManager),
                tally,
                uniques,
                counts,
                clock,
                properties.writeTimeout());
    }

    @Bean
    VisitRetention visitRetention(DatabaseClient db, VisitProperties properties, Clock clock, MeterRegistry registry) {
        return new VisitRetention(db, properties, clock, Schedulers.parallel(), registry);
    }
}
